import { useCallback, useLayoutEffect, useRef, useState, type FocusEvent } from 'react';
import type { UseFormGetValues } from 'react-hook-form';
import type { ScrollToRow } from '../../../../components/use-windowed-rows';
import type { CellValue } from '../logic/cells';
import { EDIT_FIELDS } from '../logic/rows';
import { cellId, cellOf, isTextControl, type BulkForm, type CellPlace } from './grid-types';

/**
 * The grid's focus: `focusCell` scrolls a row in and focuses its cell once drawn; `anchor` and
 * `focusValue` for Escape; `pending` so keys faster than scrolling move on from there.
 */
export function useGridFocus(
  rowCount: number,
  scrollToRow: ScrollToRow,
  getValues: UseFormGetValues<BulkForm>,
) {
  const pending = useRef<(CellPlace & { select: boolean }) | null>(null);
  const [focusTick, setFocusTick] = useState(0);
  const focusValue = useRef<(CellPlace & { value: CellValue }) | null>(null);
  const anchor = useRef<CellPlace>({ row: 0, col: 0 });

  const focusCell = useCallback(
    (row: number, col: number, select = true) => {
      const r = Math.max(0, Math.min(rowCount - 1, row));
      const c = Math.max(0, Math.min(EDIT_FIELDS.length - 1, col));
      pending.current = { row: r, col: c, select };
      scrollToRow(r);
      setFocusTick((t) => t + 1);
    },
    [rowCount, scrollToRow],
  );

  // Focus the pending cell once its row is rendered (it may need a scroll first).
  useLayoutEffect(() => {
    const target = pending.current;
    if (!target) return;
    let tries = 0;
    let frame = 0;
    const attempt = () => {
      const el = document.getElementById(cellId(target.row, target.col));
      if (el) {
        pending.current = null;
        el.focus();
        if (target.select && isTextControl(el)) el.select();
        return;
      }
      if (tries++ < 60) frame = requestAnimationFrame(attempt);
      else if (pending.current === target) pending.current = null;
    };
    attempt();
    return () => cancelAnimationFrame(frame);
  }, [focusTick]);

  const onFocus = (event: FocusEvent<HTMLTableElement>) => {
    const at = cellOf(event.target);
    if (!at) return;
    anchor.current = at;
    const field = EDIT_FIELDS[at.col]!;
    focusValue.current = { ...at, value: getValues(`rows.${at.row}.${field}`) };
  };

  return { focusCell, onFocus, anchor, focusValue, pending };
}

export type GridFocus = ReturnType<typeof useGridFocus>;
