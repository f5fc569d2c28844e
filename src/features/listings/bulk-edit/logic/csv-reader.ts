/** Reading CSV files (delimiter detected) and clipboard blocks with papaparse; writing is `shared/delimited.ts`. */
import Papa from 'papaparse';
import { restoreFormula } from '../../../../shared/delimited';
import { countOf } from '../../../../lib/format';

/** A record that could not be read as a row (left out): its row as a spreadsheet counts it (the
 * header is row 1, a quoted cell spanning lines is one row) and the 1-based line it starts on. */
export interface MalformedRow {
  row: number;
  line: number;
  message: string;
}

type CsvRecord = Omit<MalformedRow, 'message'> & { cells: string[] };

export interface ReadCsv {
  delimiter: string;
  records: CsvRecord[];
  malformed: MalformedRow[];
}

const DELIMITERS = [',', ';', '\t'] as const;
const LINE_BREAK = /\r*\n?/y;

const withoutBom = (text: string) => (text.startsWith('\uFEFF') ? text.slice(1) : text);

/** The delimiter the header line holds most often outside quotes (a comma when none). */
function detectDelimiter(text: string): ',' | ';' | '\t' {
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
  // Records come in order, so the line count only moves forward.
  let lines = 1;
  let counted = 0;
  const lineAt = (offset: number) => {
    for (; counted < offset; counted++) if (source[counted] === '\n') lines++;
    return lines;
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
      // Past the line break that ended this record, so the next one starts on its own line.
      LINE_BREAK.lastIndex = start;
      LINE_BREAK.exec(source);
      start = LINE_BREAK.lastIndex;
      if (cells.every((cell) => cell.trim() === '')) return;
      row++;
      const line = lineAt(at);
      const quoteError = step.errors.find((e) => e.type === 'Quotes');
      if (!quoteError && width < 0) width = cells.length;
      const message = quoteError
        ? quoteError.code === 'MissingQuotes'
          ? `a quote opened on this row is never closed, so the rest of the file (from line ${line}) could not be read`
          : 'a quoted cell has text after its closing quote'
        : cells.length !== width
          ? `has ${countOf(cells.length, 'cell')} where the header has ${width}`
          : undefined;
      if (message) result.malformed.push({ row, line, message });
      else result.records.push({ cells, row, line });
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

/** A block pasted from a spreadsheet, as cells; a cell neutralised by `toTsv` comes back as typed. */
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
  // Not `Math.max(...)`: a column pasted whole has more lines than a call takes arguments.
  const width = records.reduce((widest, r) => Math.max(widest, r.length), 0);
  return records.map((r) =>
    r.length < width ? [...r, ...Array<string>(width - r.length).fill('')] : r,
  );
}
