import { observeElementRect, useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';

/**
 * Windowing for a real `<table>`: only the rows in view (plus `overscan`) are rendered, between
 * a top and a bottom spacer row of the returned heights. Where layout is not measured (jsdom),
 * the scroll box counts as `height` tall.
 */
export function useWindowedRows(options: {
  count: number;
  rowHeight: number;
  height: number;
  overscan: number;
  width: number;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const { count, rowHeight, height, overscan, width } = options;
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan,
    initialRect: { width, height },
    observeElementRect: (instance, callback) =>
      observeElementRect(instance, (rect) =>
        callback(rect.height > 0 ? rect : { width: rect.width || width, height }),
      ),
  });
  const items = virtualizer.getVirtualItems();
  const paddingTop = items.length > 0 ? items[0]!.start : 0;
  const paddingBottom =
    items.length > 0 ? virtualizer.getTotalSize() - items[items.length - 1]!.end : 0;
  return { scrollRef, virtualizer, items, paddingTop, paddingBottom };
}
