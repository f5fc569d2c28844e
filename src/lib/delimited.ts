/**
 * Writing delimited text the way spreadsheets read it: CSV files (RFC 4180: quoted cells with
 * commas, quotes doubled, line breaks inside quotes) and the tab-separated blocks a spreadsheet
 * takes from the clipboard, every cell guarded against formula injection. Reading is papaparse's,
 * in the bulk editor (`features/listings/bulk-edit/logic/csv-reader.ts`).
 */

/** Cells a spreadsheet would run as a formula start with one of these. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Neutralises a cell against spreadsheet formula injection: a value starting with `=`, `+`, `-`,
 * `@`, a tab or a carriage return gets a leading apostrophe, which spreadsheets show as text.
 */
export function neutraliseFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** Undoes `neutraliseFormula` on import: `'=SUM(A1)` → `=SUM(A1)`; other apostrophes stay. */
export function restoreFormula(value: string): string {
  return value.startsWith("'") && FORMULA_START.test(value.slice(1)) ? value.slice(1) : value;
}

function quoteCell(value: string, delimiter: string): string {
  const needsQuotes =
    value.includes(delimiter) ||
    value.includes('"') ||
    value.includes('\n') ||
    value.includes('\r') ||
    value !== value.trim();
  return needsQuotes ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * Writes records as CSV that opens cleanly in a spreadsheet: a UTF-8 byte-order mark, CRLF line
 * ends, quoted cells where needed, and every cell neutralised against formula injection.
 */
export function toCsv(records: readonly (readonly string[])[]): string {
  const lines = records.map((record) =>
    record.map((value) => quoteCell(neutraliseFormula(value), ',')).join(','),
  );
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/**
 * Writes a block as a spreadsheet's clipboard holds it (tab-separated, quoted where needed), every
 * cell neutralised against formula injection as in the CSV: a pasted `=HYPERLINK(...)` is text.
 */
export function toTsv(records: readonly (readonly string[])[]): string {
  return records
    .map((record) => record.map((v) => quoteCell(neutraliseFormula(v), '\t')).join('\t'))
    .join('\n');
}
