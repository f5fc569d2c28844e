import { useRef, useState } from 'react';
import { importCsv, type CsvImport } from './logic/csv';
import type { BulkRow, EditValues } from './logic/rows';
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
  catalogue: ReadonlyMap<string, BulkRow>;
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
          className={
            result.parsed.errors.length || result.parsed.malformed.length
              ? 'banner banner-warn'
              : 'banner banner-ok'
          }
        >
          <p>{result.message}</p>
          {result.parsed.errors.length > 0 && (
            <ul aria-label="Bad cells">
              {result.parsed.errors.map((error) => (
                <li key={`${error.row}-${error.column}-${error.message}`}>
                  Row {error.row}, column {error.column}: {error.message}
                </li>
              ))}
            </ul>
          )}
          {result.parsed.malformed.length > 0 && (
            <ul aria-label="Rows not read">
              {result.parsed.malformed.map((bad) => (
                <li key={bad.row}>
                  Row {bad.row} (line {bad.line}): {bad.message}
                </li>
              ))}
            </ul>
          )}
          {result.parsed.excluded.length > 0 && (
            <ul aria-label="Left out">
              {result.parsed.excluded.map((row) => (
                <li key={row.id}>
                  Row {row.row} ({row.id}): {row.reason}
                </li>
              ))}
            </ul>
          )}
          {result.parsed.ignoredColumns.length > 0 && (
            <p>Columns ignored: {result.parsed.ignoredColumns.join(', ')}</p>
          )}
        </div>
      )}
    </section>
  );
}
