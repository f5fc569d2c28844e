/** Delimited text as spreadsheets read it (CSV, TSV), cells guarded against formulas. */

/** Cells a spreadsheet would run as a formula start with one of these. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A cell starting with `=`, `+`, `-`, `@`, tab or CR gets a leading apostrophe: shown as text. */
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

/** CSV for a spreadsheet: UTF-8 BOM, CRLF, quoted where needed, every cell neutralised. */
export function toCsv(records: readonly (readonly string[])[]): string {
  const lines = records.map((record) =>
    record.map((value) => quoteCell(neutraliseFormula(value), ',')).join(','),
  );
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** A block as a spreadsheet's clipboard holds it (tab-separated), every cell neutralised. */
export function toTsv(records: readonly (readonly string[])[]): string {
  return records
    .map((record) => record.map((v) => quoteCell(neutraliseFormula(v), '\t')).join('\t'))
    .join('\n');
}
