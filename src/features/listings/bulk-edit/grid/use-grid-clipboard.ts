import type { ClipboardEvent } from 'react';
import type { UseFormGetValues } from 'react-hook-form';
import { cellText, parseCell } from '../logic/cells';
import { toTsv } from '../../../../shared/delimited';
import { parsePastedBlock } from '../logic/csv-reader';
import { EDIT_FIELDS, FIELD_LABELS } from '../logic/rows';
import { cellOf, isTextControl, type BulkForm, type CellWrite, type Range } from './grid-types';
import type { GridCommands } from './use-grid-history';
import { countOf } from '../../../../lib/format';

/** Copy and paste as a spreadsheet does: blocks from the focused cell, each cell read by its column. */
export function useGridClipboard({
  range,
  getValues,
  commands,
  onAnnounce,
}: {
  range: Range;
  getValues: UseFormGetValues<BulkForm>;
  commands: GridCommands;
  onAnnounce(message: string): void;
}) {
  /** Copies the selected range as the block a spreadsheet would paste; false when none. */
  const copyRange = (col: number): boolean => {
    if (!range || range.col !== col) return false;
    const field = EDIT_FIELDS[range.col]!;
    const values = getValues('rows');
    const lo = Math.min(range.from, range.to);
    const hi = Math.max(range.from, range.to);
    const block = values.slice(lo, hi + 1).map((v) => [cellText(v[field])]);
    void navigator.clipboard?.writeText(toTsv(block));
    return true;
  };

  const onPaste = (event: ClipboardEvent<HTMLTableElement>) => {
    const at = cellOf(event.target);
    if (!at) return;
    const text = event.clipboardData.getData('text/plain');
    const block = parsePastedBlock(text);
    if (block.length === 0) return;
    const single = block.length === 1 && block[0]!.length === 1;
    const inRange = range && range.col === at.col && range.from !== range.to;
    if (single && !inRange && isTextControl(event.target as HTMLElement)) return; // native paste
    event.preventDefault();
    const writes: CellWrite[] = [];
    const problems: string[] = [];
    const values = getValues('rows');
    const targets: { row: number; col: number; text: string }[] = [];
    if (single && inRange) {
      const lo = Math.min(range.from, range.to);
      const hi = Math.max(range.from, range.to);
      for (let r = lo; r <= hi; r++) targets.push({ row: r, col: at.col, text: block[0]![0]! });
    } else {
      block.forEach((cells, r) =>
        cells.forEach((cell, c) => targets.push({ row: at.row + r, col: at.col + c, text: cell })),
      );
    }
    let outside = 0;
    for (const target of targets) {
      const field = EDIT_FIELDS[target.col];
      if (!field || target.row >= values.length) {
        outside++;
        continue;
      }
      const parsed = parseCell(field, target.text);
      if (parsed.ok) writes.push({ index: target.row, field, value: parsed.value });
      else problems.push(`row ${target.row + 1}, ${FIELD_LABELS[field]}: ${parsed.message}`);
    }
    const count = commands.applyStep(`Paste ${countOf(writes.length, 'cell')}`, writes);
    const parts = [`Pasted ${countOf(count, 'changed cell')} from row ${at.row + 1}`];
    if (problems.length > 0)
      parts.push(`${problems.length} not understood (${problems.slice(0, 5).join('; ')})`);
    if (outside > 0) parts.push(`${outside} outside the grid left out`);
    onAnnounce(parts.join('; '));
  };

  return { copyRange, onPaste };
}
