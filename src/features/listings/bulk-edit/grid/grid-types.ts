import type { CellValue } from '../logic/cells';
import type { EditField, EditValues } from '../logic/rows';

/** The bulk editor's one react-hook-form form: a row of values per listing. */
export interface BulkForm {
  rows: EditValues[];
}

export interface CellWrite {
  index: number;
  field: EditField;
  value: CellValue;
}

/** What the page can ask of the grid: bulk changes recorded as one undoable step. */
export interface BulkGridHandle {
  apply(label: string, writes: CellWrite[]): number;
  undo(): void;
  redo(): void;
}

/** A range selected down one column (Shift+Arrow), or none. */
export type Range = { col: number; from: number; to: number } | null;

export type CellPlace = { row: number; col: number };

export const ROW_HEIGHT = 46;
/** A phone row: the slab's facts, then 44 px labelled controls with room for an error line. */
export const NARROW_ROW_HEIGHT = 420;

export const cellId = (index: number, col: number) => `bulk-cell-${index}-${col}`;

/** Where a control of the grid sits, from its data attributes. */
export function cellOf(target: EventTarget | null): CellPlace | null {
  if (!(target instanceof HTMLElement)) return null;
  const row = target.dataset.row;
  const col = target.dataset.col;
  if (row === undefined || col === undefined) return null;
  return { row: Number(row), col: Number(col) };
}

export function isTextControl(el: HTMLElement): el is HTMLInputElement | HTMLTextAreaElement {
  return (
    (el instanceof HTMLInputElement && el.type === 'text') || el instanceof HTMLTextAreaElement
  );
}
