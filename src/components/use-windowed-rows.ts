import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';

/** A row in the window: its index and where it starts and ends in the scroll box (px). */
export interface WindowedRow {
  index: number;
  start: number;
  end: number;
}

/** Scrolls the box just enough to bring row `index` fully into view (none if it is). */
export type ScrollToRow = (index: number) => void;

/** Windowing for fixed-height table rows between two spacers; unmeasured (jsdom), `height`. */
export function useWindowedRows(options: {
  count: number;
  rowHeight: number;
  height: number;
  overscan: number;
}) {
  const { count, rowHeight, height, overscan } = options;
  const scrollRef = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(height);

  useLayoutEffect(() => {
    const box = scrollRef.current;
    if (!box) return;
    const onScroll = () => setScrollTop(box.scrollTop);
    box.addEventListener('scroll', onScroll, { passive: true });
    const resized =
      typeof ResizeObserver === 'function'
        ? new ResizeObserver(() => {
            if (box.clientHeight > 0) setViewport(box.clientHeight);
          })
        : undefined;
    resized?.observe(box);
    return () => {
      box.removeEventListener('scroll', onScroll);
      resized?.disconnect();
    };
  }, []);

  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(count - 1, Math.ceil((scrollTop + viewport) / rowHeight) + overscan);
  const items = useMemo(() => {
    const rows: WindowedRow[] = [];
    for (let index = first; index <= last; index++) {
      rows.push({ index, start: index * rowHeight, end: (index + 1) * rowHeight });
    }
    return rows;
  }, [first, last, rowHeight]);

  const scrollToRow = useCallback<ScrollToRow>(
    (index) => {
      const box = scrollRef.current;
      if (!box) return;
      const top = index * rowHeight;
      const from = box.scrollTop;
      const to =
        top < from ? top : top + rowHeight > from + viewport ? top + rowHeight - viewport : from;
      if (to === from) return;
      box.scrollTop = to;
      // The window moves with this render, not a frame later with the scroll event.
      setScrollTop(to);
    },
    [rowHeight, viewport],
  );

  const paddingTop = items.length > 0 ? first * rowHeight : 0;
  const paddingBottom = items.length > 0 ? (count - 1 - last) * rowHeight : 0;
  return { scrollRef, items, paddingTop, paddingBottom, scrollToRow };
}
