/** Delimited text as spreadsheets read it (CSV, TSV), cells guarded against formulas. */

/**
 * Cells a spreadsheet would run as a formula start with one of these, or with `=`, `+`, `-`, `@`
 * (or their full-width forms) after spaces or quotes (a reader that trims them runs what follows).
 * Any cell this matches still matches behind an apostrophe, so `restoreFormula` undoes it exactly.
 */
const FORMULA_START = /^[\s'"]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|^['"]*[\t\r]/;

/** A cell a spreadsheet could run as a formula (see FORMULA_START) gets a leading apostrophe: shown as text. */
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

/** A time zone the runtime knows, else UTC. */
export function knownZone(zone: string | undefined): string {
  if (!zone) return 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone;
  } catch {
    return 'UTC';
  }
}

/** "Nov 28, 2026 3:20 PM" in `zone` (a CSV's time: local, never ISO). */
export function csvTime(at: string | number, zone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: zone,
  }).formatToParts(new Date(at));
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((p) => p.type === type)?.value ?? '';
  return `${part('month')} ${part('day')}, ${part('year')} ${part('hour')}:${part('minute')} ${part('dayPeriod')}`;
}
