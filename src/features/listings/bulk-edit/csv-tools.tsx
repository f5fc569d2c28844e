import { useRef, useState } from 'react';
import { importCsv, type CsvImport } from './logic/csv';
import type { EditValues } from './logic/rows';
import type { CatalogueRow } from '../catalogue/catalogue-row';
import { countOf } from '../../../lib/format';

/** A file's text (Blob.text where the browser has it, FileReader otherwise). */
function readText(file: Blob): Promise<string> {
  if (typeof file.text === 'function') return file.text();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsText(file);
  });
}

/** CSV export and import: good rows as one undoable step, each bad cell and row named. */
export function CsvTools({
  onExportSelection,
  onExportMatching,
  matchingCount,
  editorCount,
  catalogue,
  current,
  onImport,
}: {
  onExportSelection(): void;
  onExportMatching(): void;
  /** How many listings the filters match, or null when the editor was given listings by id. */
  matchingCount: number | null;
  /** How many listings the editor holds. */
  editorCount: number;
  catalogue: ReadonlyMap<string, CatalogueRow>;
  current: () => ReadonlyMap<string, EditValues>;
  onImport(result: CsvImport): string;
}) {
  const fileRef = useRef<HTMLInputElement>(null);
  const [result, setResult] = useState<{ message: string; parsed: CsvImport } | null>(null);

  const onFile = async (file: File) => {
    const text = await readText(file);
    const parsed = importCsv(text, catalogue, current());
    const message = onImport(parsed);
    setResult({ message, parsed });
    if (fileRef.current) fileRef.current.value = '';
  };

  const parsed = result?.parsed;
  // Each list of what the import left aside, in words.
  const lists: [string, string[]][] = [
    [
      'Bad cells',
      parsed?.errors.map((e) => `Row ${e.row}, column ${e.column}: ${e.message}`) ?? [],
    ],
    [
      'Rows not read',
      parsed?.malformed.map((m) => `Row ${m.row} (line ${m.line}): ${m.message}`) ?? [],
    ],
    ['Left out', parsed?.excluded.map((x) => `Row ${x.row} (${x.id}): ${x.reason}`) ?? []],
  ];

  return (
    <section className="bulk-csv panel" aria-labelledby="bulk-csv-heading">
      <h2 id="bulk-csv-heading">CSV</h2>
      <div className="button-row">
        <button type="button" onClick={onExportSelection}>
          Export the {countOf(editorCount, 'listing')} in the editor
        </button>
        {matchingCount !== null && matchingCount !== editorCount && (
          <button type="button" onClick={onExportMatching}>
            Export all {matchingCount} matching the filters (sold ones too)
          </button>
        )}
      </div>
      <div className="field">
        <label htmlFor="bulk-csv-import">Import a CSV of listing ids with new values</label>
        <input
          id="bulk-csv-import"
          ref={fileRef}
          type="file"
          accept=".csv,.tsv,.txt,text/csv,text/tab-separated-values"
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) void onFile(file);
          }}
        />
      </div>
      {result && (
        <div
          role="status"
          className={`banner ${lists[0]![1].length || lists[1]![1].length ? 'banner-warn' : 'banner-ok'}`}
        >
          <p>{result.message}</p>
          {lists.map(
            ([label, lines]) =>
              lines.length > 0 && (
                <ul key={label} aria-label={label}>
                  {lines.map((line, at) => (
                    <li key={`${at}-${line}`}>{line}</li>
                  ))}
                </ul>
              ),
          )}
          {result.parsed.ignoredColumns.length > 0 && (
            <p>Columns ignored: {result.parsed.ignoredColumns.join(', ')}</p>
          )}
        </div>
      )}
    </section>
  );
}
