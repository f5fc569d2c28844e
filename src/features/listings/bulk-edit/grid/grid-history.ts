import type { CellValue } from '../logic/cells';
import type { CellWrite } from './grid-types';

/** One cell's change: which row (its index in the grid), which column, and the values. */
interface CellChange extends Omit<CellWrite, 'value'> {
  before: CellValue;
  after: CellValue;
}

/** One undoable step: a typed cell, a pasted block, a fill, a bulk action. */
interface HistoryEntry {
  label: string;
  changes: CellChange[];
  /** Typing in one cell: later keystrokes in the same cell join this entry. */
  typingKey?: string | undefined;
}

const LIMIT = 500;

/** The grid's undo and redo: steps of cell changes; typing in one cell until it is left is one step. */
export class GridHistory {
  private done: HistoryEntry[] = [];
  private undone: HistoryEntry[] = [];

  get canUndo(): boolean {
    return this.done.length > 0;
  }

  get canRedo(): boolean {
    return this.undone.length > 0;
  }

  record(entry: HistoryEntry): void {
    const changes = entry.changes.filter((c) => c.before !== c.after);
    if (changes.length === 0) return;
    this.undone = [];
    const last = this.done.at(-1);
    if (entry.typingKey && last?.typingKey === entry.typingKey) {
      // Same cell, same typing: keep the first `before`, take the latest `after`.
      last.changes = last.changes.map((c) => ({ ...c, after: changes[0]!.after }));
      return;
    }
    this.done.push({ ...entry, changes });
    if (this.done.length > LIMIT) this.done.shift();
  }

  /** Ends the typing run in progress, so the next keystroke starts a new step. */
  seal(): void {
    const last = this.done.at(-1);
    if (last) last.typingKey = undefined;
  }

  /** The writes that take the last step back, in the order to apply them. */
  undo(): { label: string; changes: CellWrite[] } | null {
    return this.move(this.done, this.undone, 'before');
  }

  redo(): { label: string; changes: CellWrite[] } | null {
    return this.move(this.undone, this.done, 'after');
  }

  private move(from: HistoryEntry[], to: HistoryEntry[], side: 'before' | 'after') {
    const entry = from.pop();
    if (!entry) return null;
    entry.typingKey = undefined;
    to.push(entry);
    const changes = side === 'before' ? [...entry.changes].reverse() : entry.changes;
    return {
      label: entry.label,
      changes: changes.map((c) => ({ index: c.index, field: c.field, value: c[side] })),
    };
  }
}
