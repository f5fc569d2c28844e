/**
 * Reading and writing delimited text the way spreadsheets do: CSV files (RFC 4180: quoted cells
 * with commas, quotes doubled, line breaks inside quotes) and the tab-separated blocks that a
 * spreadsheet puts on the clipboard (the same quoting, with tabs).
 */

/** Splits delimited text into records of cells. A trailing line break ends the last record. */
export function parseDelimited(text: string, delimiter: ',' | '\t'): string[][] {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let quoted = false;
  let cellStarted = false;
  let i = 0;
  while (i < source.length) {
    const ch = source[i]!;
    if (quoted) {
      if (ch === '"') {
        if (source[i + 1] === '"') {
          cell += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      cell += ch;
      i++;
      continue;
    }
    if (ch === '"' && !cellStarted) {
      quoted = true;
      cellStarted = true;
      i++;
      continue;
    }
    if (ch === delimiter) {
      record.push(cell);
      cell = '';
      cellStarted = false;
      i++;
      continue;
    }
    if (ch === '\r' || ch === '\n') {
      record.push(cell);
      records.push(record);
      record = [];
      cell = '';
      cellStarted = false;
      i += ch === '\r' && source[i + 1] === '\n' ? 2 : 1;
      continue;
    }
    cell += ch;
    cellStarted = true;
    i++;
  }
  if (cellStarted || cell !== '' || record.length > 0) {
    record.push(cell);
    records.push(record);
  }
  return records;
}

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

/**
 * Parses a block pasted from a spreadsheet: tab-separated, quoted cells may hold line breaks
 * (a single line of plain text is a 1×1 block). The trailing line break spreadsheets add is
 * dropped; a block padded with empty cells keeps them. A cell neutralised by `toTsv` (or typed
 * as text in a spreadsheet, `'=...`) comes back as the text it stands for.
 */
export function parsePastedBlock(text: string): string[][] {
  if (text === '') return [];
  const records = parseDelimited(text, '\t').map((r) => r.map(restoreFormula));
  const width = Math.max(...records.map((r) => r.length));
  return records.map((r) =>
    r.length < width ? [...r, ...Array<string>(width - r.length).fill('')] : r,
  );
}
