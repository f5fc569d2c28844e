import type { CellWrite } from './grid/grid-types';
import type { CsvImport } from './logic/csv';
import { EDIT_FIELDS, type EditValues } from './logic/rows';
import type { CatalogueRow } from '../catalogue/catalogue-row';
import { countOf } from '../../../lib/format';

/** An import joins the editor: one undoable step of cells, or new listings added to the selection. */
export type CsvMerge =
  | { kind: 'cells'; writes: CellWrite[]; promoted: Promoted[]; summary(changed: number): string }
  | {
      kind: 'grown';
      added: CatalogueRow[];
      values: EditValues[];
      promoted: Promoted[];
      summary: string;
    };

interface Promoted {
  index: number;
  value: boolean;
}

export function mergeCsvImport(
  parsed: CsvImport,
  selection: readonly CatalogueRow[],
  current: readonly EditValues[],
): CsvMerge {
  const indexById = new Map(selection.map((row, index) => [row.id, index]));
  const inGrid = parsed.edits.filter((edit) => indexById.has(edit.id));
  const outside = parsed.rows.filter((row) => !indexById.has(row.id));
  const tail = [
    countOf(parsed.errors.length, 'bad cell'),
    parsed.malformed.length ? `${countOf(parsed.malformed.length, 'row')} not read` : '',
    parsed.excluded.length ? `${countOf(parsed.excluded.length, 'row')} left out` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const promoted = parsed.edits.flatMap((edit) => {
    const index = indexById.get(edit.id);
    return index !== undefined && edit.promoted !== undefined
      ? [{ index, value: edit.promoted }]
      : [];
  });
  if (outside.length === 0) {
    const writes = inGrid.flatMap((edit) =>
      EDIT_FIELDS.map((field) => ({ index: indexById.get(edit.id)!, field, value: edit[field] })),
    );
    return {
      kind: 'cells',
      writes,
      promoted,
      summary: (changed) =>
        `Imported ${countOf(inGrid.length, 'row')}: ${countOf(changed, 'cell')} changed; ${tail}.`,
    };
  }
  const byId = new Map(parsed.edits.map((edit) => [edit.id, edit]));
  return {
    kind: 'grown',
    added: outside,
    values: [
      ...current.map((row) => byId.get(row.id) ?? row),
      ...outside.map((row) => byId.get(row.id)!),
    ],
    promoted,
    summary: `Imported ${countOf(parsed.edits.length, 'row')}, ${outside.length} of them added to the selection; ${tail}.`,
  };
}
