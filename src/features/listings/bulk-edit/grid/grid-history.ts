import type { CellValue } from '../logic/cells';
import type { EditField } from '../logic/rows';

/** One cell's change: which row (its index in the grid), which column, and the values. */
export interface CellChange {
  index: number;
  field: EditField;
  before: CellValue;
  after: CellValue;
}

/** One undoable step: a typed cell, a pasted block, a fill, a bulk action. */
export interface HistoryEntry {
  label: string;
  changes: CellChange[];
  /** Typing in one cell: later keystrokes in the same cell join this entry. */
  typingKey?: string | undefined;
}

/**
 * The grid's undo and redo: steps of cell changes; typing in one cell until it is left is one step.
 */
export class GridHistory {
  private done: HistoryEntry[] = [];
  private undone: HistoryEntry[] = [];
  private readonly limit: number;

  constructor(limit = 500) {
    this.limit = limit;
  }

  get canUndo(): boolean {
    return this.done.length > 0;
  }

  get canRedo(): boolean {
    return this.undone.length > 0;
  }

  /** The label of the step undo would take back. */
  get undoLabel(): string | undefined {
    return this.done[this.done.length - 1]?.label;
  }

  get redoLabel(): string | undefined {
    return this.undone[this.undone.length - 1]?.label;
  }

  record(entry: HistoryEntry): void {
    const changes = entry.changes.filter((c) => c.before !== c.after);
    if (changes.length === 0) return;
    this.undone = [];
    const last = this.done[this.done.length - 1];
    if (entry.typingKey && last?.typingKey === entry.typingKey) {
      // Same cell, same typing: keep the first `before`, take the latest `after`.
      last.changes = last.changes.map((c) => ({ ...c, after: changes[0]!.after }));
      return;
    }
    this.done.push({ ...entry, changes });
    if (this.done.length > this.limit) this.done.shift();
  }

  /** Ends the typing run in progress, so the next keystroke starts a new step. */
  seal(): void {
    const last = this.done[this.done.length - 1];
    if (last) last.typingKey = undefined;
  }

  /** The changes to write to undo the last step (already in the order to apply). */
  undo(): {
    label: string;
    changes: { index: number; field: EditField; value: CellValue }[];
  } | null {
    const entry = this.done.pop();
    if (!entry) return null;
    entry.typingKey = undefined;
    this.undone.push(entry);
    return {
      label: entry.label,
      changes: [...entry.changes]
        .reverse()
        .map((c) => ({ index: c.index, field: c.field, value: c.before })),
    };
  }

  redo(): {
    label: string;
    changes: { index: number; field: EditField; value: CellValue }[];
  } | null {
    const entry = this.undone.pop();
    if (!entry) return null;
    this.done.push(entry);
    return {
      label: entry.label,
      changes: entry.changes.map((c) => ({ index: c.index, field: c.field, value: c.after })),
    };
  }

  clear(): void {
    this.done = [];
    this.undone = [];
  }
}
