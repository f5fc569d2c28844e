/**
 * Reading delimited text with papaparse (bulk editor's chunk only): CSV files with a detected
 * delimiter (comma, semicolon, tab), and clipboard blocks. Writing is `lib/delimited.ts`.
 */
import Papa from 'papaparse';
import { restoreFormula } from '../../../../shared/delimited';
import { countOf } from '../../../../lib/format';

/** One record of a file: its cells, its row as a spreadsheet counts it, the line it starts on. */
export interface CsvRecord {
  cells: string[];
  /** 1-based, the header is row 1; a quoted cell spanning lines is still one row. */
  row: number;
  /** 1-based line of the file where the record starts. */
  line: number;
}

/** A record that could not be read as a row (it is left out). */
export interface MalformedRow {
  row: number;
  line: number;
  message: string;
}

export interface ReadCsv {
  delimiter: string;
  records: CsvRecord[];
  malformed: MalformedRow[];
}

const DELIMITERS = [',', ';', '\t'] as const;

const withoutBom = (text: string) => (text.startsWith('\uFEFF') ? text.slice(1) : text);

/** The delimiter the header line holds most often outside quotes (a comma when none). */
export function detectDelimiter(text: string): ',' | ';' | '\t' {
  const counts = new Map<string, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) {
      if ([...counts.values()].some((n) => n > 0)) break;
    } else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1);
  }
  let best: ',' | ';' | '\t' = ',';
  for (const d of DELIMITERS) if (counts.get(d)! > counts.get(best)!) best = d as typeof best;
  return best;
}

/** Reads a CSV file; a record of the wrong width or broken quotes is reported and left out. */
export function readCsv(text: string): ReadCsv {
  const source = withoutBom(text);
  const lineStarts = [0];
  for (let i = 0; i < source.length; i++) if (source[i] === '\n') lineStarts.push(i + 1);
  const lineAt = (offset: number) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const delimiter = detectDelimiter(source);
  const result: ReadCsv = { delimiter, records: [], malformed: [] };
  let start = 0;
  let row = 0;
  let width = -1;
  Papa.parse<string[]>(source, {
    delimiter,
    skipEmptyLines: false,
    step: (step) => {
      const cells = step.data;
      const at = start;
      start = step.meta.cursor;
      // Skip the line break that ended this record, so the next one starts on its own line.
      while (source[start] === '\r' || source[start] === '\n') {
        if (source[start] === '\n') {
          start++;
          break;
        }
        start++;
      }
      if (cells.every((cell) => cell.trim() === '')) return;
      row++;
      const line = lineAt(at);
      const quoteError = step.errors.find((e) => e.type === 'Quotes');
      if (quoteError) {
        const unclosed = quoteError.code === 'MissingQuotes';
        result.malformed.push({
          row,
          line,
          message: unclosed
            ? `a quote opened on this row is never closed, so the rest of the file (from line ${line}) could not be read`
            : 'a quoted cell has text after its closing quote',
        });
        return;
      }
      if (width < 0) width = cells.length;
      else if (cells.length !== width) {
        result.malformed.push({
          row,
          line,
          message: `has ${countOf(cells.length, 'cell')} where the header has ${width}`,
        });
        return;
      }
      result.records.push({ cells, row, line });
    },
  });
  return result;
}

/** The records of delimited text as cells (tests and simple reads), the delimiter detected. */
export function parseDelimited(text: string, delimiter?: ',' | ';' | '\t'): string[][] {
  const source = withoutBom(text);
  const parsed = Papa.parse<string[]>(source, {
    delimiter: delimiter ?? detectDelimiter(source),
    skipEmptyLines: true,
  });
  return parsed.data;
}

/**
 * Parses a block pasted from a spreadsheet (tab-separated, quoted line breaks), dropping the final
 * line break; a cell neutralised by `toTsv` (`'=...`) comes back as its text.
 */
export function parsePastedBlock(text: string): string[][] {
  if (text === '') return [];
  const body = text.endsWith('\r\n')
    ? text.slice(0, -2)
    : text.endsWith('\n')
      ? text.slice(0, -1)
      : text;
  const records = Papa.parse<string[]>(body, { delimiter: '\t', quoteChar: '"' }).data.map((r) =>
    r.map(restoreFormula),
  );
  const width = Math.max(...records.map((r) => r.length));
  return records.map((r) =>
    r.length < width ? [...r, ...Array<string>(width - r.length).fill('')] : r,
  );
}
