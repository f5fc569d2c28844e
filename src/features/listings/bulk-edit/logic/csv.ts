import { parseCell, parseYesNo } from './cells';
import { restoreFormula, toCsv } from '../../../../shared/delimited';
import { ownEntry } from '../../../../shared/own-entry';
import { readCsv, type MalformedRow } from './csv-reader';
import { parseAmount, parsePrice } from '../../../../client/listing-rules';
import type { CatalogueRow } from '../../catalogue/catalogue-row';
import {
  exclusionReason,
  FIELD_LABELS,
  rowErrors,
  toEditValues,
  type EditField,
  type EditValues,
} from './rows';

/** A listing as exported: its facts, its values (edited or as found) and its status word. */
interface Exported {
  row: CatalogueRow;
  values: EditValues;
  status: string;
}

/** Yes / no, or blank for a value the API does not show (blank leaves it unchanged). */
const yesNo = (value: boolean | null | undefined) => (value == null ? '' : value ? 'yes' : 'no');

/** Every column of the export, in order, with its cell: the API's names, so a file reads like the API. */
const CSV_CELLS = {
  id: ({ row }) => row.id,
  title: ({ values }) => values.title,
  status: ({ status }) => status,
  unavailable_reason: ({ row }) => row.reason ?? '',
  price: ({ values }) => values.price,
  minimum_offer: ({ values }) => values.minimumOffer,
  accepts_offers: ({ values }) => yesNo(values.acceptsOffers),
  accepts_trades: ({ values }) => yesNo(values.acceptsTrades),
  auto_relist: ({ values }) => yesNo(values.autoRelist),
  promoted: ({ row, values }) => yesNo(values.promoted ?? row.promoted),
  duration_hours: ({ values }) => values.durationHours,
  description: ({ values }) => values.description,
  player: ({ row }) => row.player ?? '',
  cert_number: ({ row }) => row.cert ?? '',
  grader: ({ row }) => row.grader ?? '',
  grade: ({ row }) => row.grade ?? '',
  year: ({ row }) => (row.year == null ? '' : String(row.year)),
  set: ({ row }) => row.set ?? '',
  category: ({ row }) => row.category ?? '',
  is_lot: ({ row }) => yesNo(row.isLot),
  can_reactivate: ({ row }) => yesNo(row.canReactivate),
  updated_at: ({ row }) => row.updatedAt ?? row.listedAt ?? '',
} satisfies Record<string, (listing: Exported) => string>;
export type CsvColumn = keyof typeof CSV_CELLS;
export const CSV_COLUMNS = Object.keys(CSV_CELLS) as CsvColumn[];

/** The columns an import may change, and the form field each one sets. */
export const IMPORT_COLUMNS: Partial<Record<CsvColumn, EditField | 'promoted'>> = {
  title: 'title',
  status: 'status',
  price: 'price',
  minimum_offer: 'minimumOffer',
  accepts_offers: 'acceptsOffers',
  accepts_trades: 'acceptsTrades',
  auto_relist: 'autoRelist',
  promoted: 'promoted',
  duration_hours: 'durationHours',
  description: 'description',
};

function csvRecord(row: CatalogueRow, edit?: EditValues): string[] {
  const values = edit ?? toEditValues(row);
  const status = edit ? (edit.status === 'inactive' ? 'archived' : edit.status) : row.status;
  const listing = { row, values, status: status ?? '' };
  return CSV_COLUMNS.map((column) => CSV_CELLS[column](listing));
}

/** The CSV of a set of listings; with `edits`, the editable columns hold the edited values. */
export function exportCsv(rows: readonly CatalogueRow[], edits?: ReadonlyMap<string, EditValues>) {
  return toCsv([CSV_COLUMNS, ...rows.map((row) => csvRecord(row, edits?.get(row.id)))]);
}

/** One bad cell of an import, named by the spreadsheet's row (the header is row 1) and column. */
export interface CsvCellError {
  row: number;
  column: string;
  message: string;
}

export interface CsvImport {
  /** The edited values of each good row (the columns absent from the file are left as they were). */
  edits: EditValues[];
  /** The originals of the imported rows, in the file's order (for the plan). */
  rows: CatalogueRow[];
  errors: CsvCellError[];
  /** Rows left out for a reason that is not a bad cell (a sold listing). */
  excluded: { row: number; id: string; reason: string }[];
  /** Header cells that are neither editable nor exported columns. */
  ignoredColumns: string[];
  /** Records that could not be read as rows (wrong cell count, broken quotes), by row and line. */
  malformed: MalformedRow[];
  delimiter: string;
}

/** European spreadsheets write a semicolon between cells and a decimal comma: 129,99. */
const decimalComma = (cell: string, delimiter: string) =>
  delimiter === ';' && /^\s*\$?\s*\d+,\d{1,2}\s*$/.test(cell) ? cell.replace(',', '.') : cell;

const COLUMN_BY_FIELD = Object.fromEntries(
  Object.entries(IMPORT_COLUMNS).map(([column, field]) => [field, column]),
) as Record<EditField | 'promoted', string>;

/** Reads a CSV of ids with new values into edited rows; a bad cell is named and its row left out. */
export function importCsv(
  text: string,
  catalogue: ReadonlyMap<string, CatalogueRow>,
  current?: ReadonlyMap<string, EditValues>,
): CsvImport {
  const read = readCsv(text);
  const result: CsvImport = {
    edits: [],
    rows: [],
    errors: [],
    excluded: [],
    ignoredColumns: [],
    malformed: read.malformed,
    delimiter: read.delimiter,
  };
  const [head, ...body] = read.records;
  const header =
    head?.row === 1
      ? head.cells.map((cell) => restoreFormula(cell).trim().toLowerCase())
      : undefined;
  if (!header) {
    if (read.malformed.some((m) => m.row === 1)) return result;
    result.errors.push({ row: 1, column: 'id', message: 'the file is empty' });
    return result;
  }
  const idAt = header.indexOf('id');
  if (idAt < 0) {
    result.errors.push({ row: 1, column: 'id', message: 'the header has no id column' });
    return result;
  }
  // A column read twice would leave one of its cells unsaid: which one the seller meant is a guess.
  const twice = header.find(
    (name, at) => (name === 'id' || ownEntry(IMPORT_COLUMNS, name)) && header.indexOf(name) < at,
  );
  if (twice !== undefined) {
    result.errors.push({ row: 1, column: twice, message: 'the header names this column twice' });
    return result;
  }
  const columns: { at: number; column: string; field: EditField | 'promoted' }[] = [];
  header.forEach((name, at) => {
    const field = ownEntry(IMPORT_COLUMNS, name);
    if (field) columns.push({ at, column: name, field });
    else if (name !== 'id' && !(CSV_COLUMNS as readonly string[]).includes(name)) {
      result.ignoredColumns.push(name);
    }
  });
  const seen = new Map<string, number>();
  for (const { cells: record, row: rowNumber } of body) importRow(record, rowNumber);
  return result;

  function importRow(record: string[], row: number): void {
    const id = restoreFormula(record[idAt] ?? '').trim();
    const earlier = seen.get(id);
    if (id !== '' && earlier === undefined) seen.set(id, row);
    const original = id === '' || earlier !== undefined ? undefined : catalogue.get(id);
    if (!original) {
      const message =
        id === ''
          ? 'is empty'
          : earlier !== undefined
            ? `repeats row ${earlier}`
            : `no listing ${id} in the catalogue`;
      result.errors.push({ row, column: 'id', message });
      return;
    }
    const reason = exclusionReason(original);
    if (reason) {
      result.excluded.push({ row, id, reason });
      return;
    }
    const values: EditValues = { ...(current?.get(id) ?? toEditValues(original)) };
    const errors: CsvCellError[] = [];
    for (const { at, column, field } of columns) {
      const raw = restoreFormula(record[at] ?? '');
      if (field === 'promoted') {
        const parsed = parseYesNo(raw);
        if (parsed.ok) values.promoted = parsed.value ?? undefined;
        else errors.push({ row, column, message: parsed.message });
        continue;
      }
      const cell =
        field === 'price' || field === 'minimumOffer' ? decimalComma(raw, read.delimiter) : raw;
      // An amount is judged here, in the cell's words; the row schema judges the rest below.
      const amount =
        field === 'price'
          ? parsePrice(cell.trim())
          : field === 'minimumOffer' && cell.trim() !== ''
            ? parseAmount(cell.trim())
            : undefined;
      const parsed = amount && !amount.ok ? amount : parseCell(field, cell);
      if (parsed.ok) (values as unknown as Record<string, unknown>)[field] = parsed.value;
      else errors.push({ row, column, message: parsed.message });
    }
    if (errors.length === 0) {
      for (const [field, message] of Object.entries(rowErrors(values))) {
        const column = COLUMN_BY_FIELD[field as EditField] ?? field;
        errors.push({ row, column, message: `${FIELD_LABELS[field as EditField]} ${message}` });
      }
    }
    result.errors.push(...errors);
    if (errors.length > 0) return;
    result.edits.push(values);
    result.rows.push(original);
  }
}
