import {
  useCallback,
  useLayoutEffect,
  useRef,
  useState,
  type FocusEvent,
  type KeyboardEvent,
} from 'react';
import type { UseFormGetValues } from 'react-hook-form';
import type { ScrollToRow } from '../../../../components/use-windowed-rows';
import type { CellValue } from '../logic/cells';
import { EDIT_FIELDS, FIELD_LABELS } from '../logic/rows';
import {
  cellId,
  cellOf,
  isTextControl,
  type BulkForm,
  type CellPlace,
  type CellWrite,
  type Range,
} from './grid-types';
import type { GridCommands } from './use-grid-history';
import { countOf } from '../../../../lib/format';

/** The grid's keys as a spreadsheet's: moves, Shift+Arrow ranges, undo, fill down, copy, Escape. */
export function useGridKeyboard({
  rowCount,
  range,
  setRange,
  getValues,
  commands,
  focus,
  copyRange,
  onAnnounce,
}: {
  rowCount: number;
  range: Range;
  setRange(range: Range): void;
  getValues: UseFormGetValues<BulkForm>;
  commands: GridCommands;
  focus: ReturnType<typeof useGridFocus>;
  copyRange(col: number): boolean;
  onAnnounce(message: string): void;
}) {
  const { applyStep, onCell, undo, redo, seal } = commands;
  const { anchor, focusValue, pending, focusCell } = focus;

  const fillDown = useCallback(() => {
    const at = anchor.current;
    const field = EDIT_FIELDS[at.col]!;
    const values = getValues('rows');
    const from = range && range.col === at.col ? Math.min(range.from, range.to) : at.row;
    const to = range && range.col === at.col ? Math.max(range.from, range.to) : values.length - 1;
    const source = values[from]?.[field];
    if (source === undefined) return;
    const writes: CellWrite[] = [];
    for (let i = from + 1; i <= to; i++) writes.push({ index: i, field, value: source });
    const count = applyStep(`Fill down ${FIELD_LABELS[field]}`, writes);
    onAnnounce(
      `Filled ${FIELD_LABELS[field]} down from row ${from + 1} to row ${to + 1}: ${countOf(count, 'cell')} changed`,
    );
  }, [anchor, applyStep, getValues, onAnnounce, range]);

  const onKeyDown = (event: KeyboardEvent<HTMLTableElement>) => {
    const target = cellOf(event.target);
    if (!target) return;
    // Keys pressed faster than the grid scrolls: move on from where the last key was going.
    const at = pending.current ?? target;
    const el = event.target as HTMLElement;
    const mod = event.ctrlKey || event.metaKey;
    const key = event.key;
    const commands: Record<string, (() => void) | undefined> = {
      z: () => {
        seal();
        if (event.shiftKey) redo();
        else undo();
      },
      y: redo,
      d: fillDown,
    };
    const command = mod ? commands[key.toLowerCase()] : undefined;
    if (command || (mod && key.toLowerCase() === 'c' && copyRange(at.col))) {
      event.preventDefault();
      command?.();
      return;
    }
    if (key === 'Escape') {
      const before = focusValue.current;
      if (before && before.row === at.row && before.col === at.col) {
        event.preventDefault();
        onCell(at.row, EDIT_FIELDS[at.col]!, before.value, false);
        seal();
      }
      setRange(null);
      return;
    }
    const text = isTextControl(el);
    const caretAtStart = text && el.selectionStart === 0 && el.selectionEnd === 0;
    const caretAtEnd =
      text && el.selectionStart === el.value.length && el.selectionEnd === el.value.length;
    const allSelected =
      text && el.selectionStart === 0 && el.selectionEnd === el.value.length && el.value !== '';
    let move: [number, number] | null = null;
    if (key === 'ArrowDown' || key === 'ArrowUp') {
      if (event.altKey) return; // let a select open its list
      const step = key === 'ArrowDown' ? 1 : -1;
      if (event.shiftKey) {
        event.preventDefault();
        const start = range && range.col === at.col ? range.from : at.row;
        const to = Math.max(0, Math.min(rowCount - 1, at.row + step));
        setRange({ col: at.col, from: start, to });
        focusCell(to, at.col, false);
        return;
      }
      move = [at.row + step, at.col];
    } else if (key === 'ArrowLeft' && (!text || caretAtStart || allSelected)) {
      move = [at.row, at.col - 1];
    } else if (key === 'ArrowRight' && (!text || caretAtEnd || allSelected)) {
      move = [at.row, at.col + 1];
    } else if (key === 'Enter' && !event.altKey && !mod) {
      move = [at.row + (event.shiftKey ? -1 : 1), at.col];
    } else if (key === 'Enter' && event.altKey && el instanceof HTMLTextAreaElement) {
      // Alt+Enter: a line break inside a description, as in a spreadsheet.
      event.preventDefault();
      const start = el.selectionStart;
      const value = `${el.value.slice(0, start)}\n${el.value.slice(el.selectionEnd)}`;
      onCell(at.row, 'description', value, true);
      return;
    } else if (key === 'Tab') {
      const last = EDIT_FIELDS.length - 1;
      if (!event.shiftKey && at.col === last && at.row === rowCount - 1) return;
      if (event.shiftKey && at.col === 0 && at.row === 0) return;
      move = event.shiftKey
        ? at.col === 0
          ? [at.row - 1, last]
          : [at.row, at.col - 1]
        : at.col === last
          ? [at.row + 1, 0]
          : [at.row, at.col + 1];
    }
    if (!move) return;
    event.preventDefault();
    setRange(null);
    seal();
    focusCell(move[0], move[1]);
  };

  return { onKeyDown, fillDown };
}

/** The grid's focus: scroll-then-focus a cell, Escape's anchor, and keys faster than scrolling. */
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
