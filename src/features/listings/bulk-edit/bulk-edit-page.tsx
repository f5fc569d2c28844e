import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { paths } from '../../../lib/paths';
import { ErrorBanner } from '../../../components/error-banner';
import { UnsavedChangesGuard } from '../../../components/unsaved-changes-guard';
import { useApiClient } from '../../../lib/api-context';
import { applyCatalogueSearch, readCatalogueSearch } from '../catalogue-filters';
import type { CatalogueRow } from '../catalogue-row';
import { useCatalogue } from '../use-catalogue';
import { ReadOnlyGate } from '../../../components/write-actions';
import { CatalogueLoadState } from '../catalogue-load-state';
import { ApplyPanel } from './apply-panel';
import { BulkActionsPanel, type ActionSummary } from './bulk-actions-panel';
import { applyToCache } from './bulk-cache';
import { IDS_PARAM, resolveSelection, type BulkSelection } from './bulk-selection';
import { CsvTools, download } from './csv-tools';
import { BulkGrid } from './grid/bulk-grid';
import type { BulkForm, BulkGridHandle, CellWrite } from './grid/grid-types';
import { isResumable, jobFromPlan, type BulkJob } from './jobs/job';
import type { JobRunner, WriteResult } from './jobs/job-runner';
import { existingRunner, forgetRunner, jobStore, runnerFor } from './jobs/job-registry';
import { exportCsv, type CsvImport } from './logic/csv';
import { planBulkEdit, type Plan } from './logic/diff';
import { describeEstimate } from './logic/estimate';
import { EDIT_FIELDS, toBulkRow, toEditValues, type EditValues } from './logic/rows';
import { ResumeBanner } from './resume-banner';
import { PreviewPanel } from './preview-panel';
import { BelowCostNotice } from './below-cost-notice';
import { MarginBasisProvider } from './grid/margin-cell';
import './bulk-edit.css';

type Stage = 'edit' | 'preview' | 'apply';

/** The bulk editor of the listings the listings page handed over (see bulk-selection.ts). */
function BulkEditor({
  products,
  params,
  onRestart,
}: {
  products: readonly CatalogueRow[];
  params: URLSearchParams;
  onRestart(): void;
}) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const [selection, setSelection] = useState<BulkSelection>(() =>
    resolveSelection(products, params),
  );
  const originals = useMemo(() => selection.rows.map(toEditValues), [selection]);
  const form = useForm<BulkForm>({ defaultValues: { rows: originals } });
  const grid = useRef<BulkGridHandle>(null);
  const [announcement, setAnnouncement] = useState('');
  const [summary, setSummary] = useState<ActionSummary | null>(null);
  const [stage, setStage] = useState<Stage>('edit');
  const [plan, setPlan] = useState<Plan | null>(null);
  const [runner, setRunner] = useState<JobRunner | null>(null);
  const [resumable, setResumable] = useState<BulkJob[]>([]);
  const [storeError, setStoreError] = useState<unknown>(null);
  const bucket = useSyncExternalStore(
    client.transport.subscribe,
    client.transport.getState,
    client.transport.getState,
  ).bucket;

  useEffect(() => {
    let live = true;
    jobStore()
      .list()
      .then((jobs) => {
        if (!live) return;
        // The store may lag a run of this tab by a save: the runner's own state comes first.
        const going = (job: BulkJob) => {
          const state = existingRunner(job.id)?.getProgress().state;
          return state === 'running' || state === 'pausing' || state === 'paused';
        };
        const open = jobs.filter(
          (job) => isResumable(job) && (going(job) || !existingRunner(job.id)),
        );
        // A run still going in this tab (the seller left the editor and came back): show it.
        const running = open.find(going);
        if (running) {
          setRunner(existingRunner(running.id)!);
          setStage('apply');
        }
        setResumable(open.filter((job) => !going(job)));
      })
      .catch((error: unknown) => setStoreError(error));
    return () => {
      live = false;
    };
  }, []);

  const onWrite = useCallback(
    (result: WriteResult) => applyToCache(queryClient, result),
    [queryClient],
  );

  const catalogueById = useMemo(
    () => new Map(products.map((p) => [p.id, toBulkRow(p)])),
    [products],
  );
  const matching = useMemo(() => {
    const search = new URLSearchParams(params);
    search.delete('ids');
    return applyCatalogueSearch(products, readCatalogueSearch(search));
  }, [products, params]);

  const currentEdits = useCallback(
    () => new Map(form.getValues('rows').map((row) => [row.id, row])),
    [form],
  );

  const openPreview = form.handleSubmit((values) => {
    setPlan(planBulkEdit(selection.rows, values.rows));
    setStage('preview');
  });

  const start = async (job: BulkJob, fresh: boolean) => {
    try {
      if (fresh) await jobStore().create(job);
    } catch (error) {
      setStoreError(error);
      return;
    }
    const next = existingRunner(job.id) ?? runnerFor(client, job, onWrite);
    setRunner(next);
    setStage('apply');
    void next.start();
  };

  const apply = () => {
    if (!plan) return;
    const job = jobFromPlan(plan, `Bulk edit of ${plan.items.length} listing(s)`);
    void start(job, true);
  };

  const resume = (job: BulkJob) => {
    setResumable((jobs) => jobs.filter((j) => j.id !== job.id));
    void start(job, false);
  };

  const discard = (job: BulkJob) => {
    setResumable((jobs) => jobs.filter((j) => j.id !== job.id));
    forgetRunner(job.id);
    void jobStore().remove(job.id);
  };

  const onImport = (parsed: CsvImport): string => {
    const indexById = new Map(selection.rows.map((row, index) => [row.id, index]));
    const inGrid = parsed.edits.filter((edit) => indexById.has(edit.id));
    const outside = parsed.rows.filter((row) => !indexById.has(row.id));
    const bad = parsed.errors.length;
    const tail = `${bad} bad cell(s)${parsed.excluded.length ? `, ${parsed.excluded.length} row(s) left out` : ''}.`;
    const writes: CellWrite[] = inGrid.flatMap((edit) =>
      EDIT_FIELDS.map((field) => ({ index: indexById.get(edit.id)!, field, value: edit[field] })),
    );
    for (const edit of parsed.edits) {
      const index = indexById.get(edit.id);
      if (index !== undefined && edit.promoted !== undefined) {
        form.setValue(`rows.${index}.promoted`, edit.promoted, { shouldDirty: true });
      }
    }
    if (outside.length === 0) {
      const changed = grid.current?.apply('Import CSV', writes) ?? 0;
      return `Imported ${inGrid.length} row(s): ${changed} cell(s) changed; ${tail}`;
    }
    // Listings beyond the selection join it, with the imported values.
    const byId = new Map(parsed.edits.map((edit) => [edit.id, edit]));
    const values: EditValues[] = [
      ...form.getValues('rows').map((row) => byId.get(row.id) ?? row),
      ...outside.map((row) => byId.get(row.id)!),
    ];
    setSelection((current) => ({
      ...current,
      rows: [...current.rows, ...outside],
      scope: `${current.scope} and ${outside.length} more from a CSV`,
    }));
    form.reset({ rows: values });
    return `Imported ${parsed.edits.length} row(s), ${outside.length} of them added to the selection; ${tail}`;
  };

  const estimate = plan ? describeEstimate(plan.writes, bucket) : '';
  const dirty = form.formState.isDirty && stage !== 'apply';

  return (
    <>
      <UnsavedChangesGuard when={dirty} />
      {storeError ? (
        <ErrorBanner error={storeError} title="The browser's storage for bulk jobs failed" />
      ) : null}
      {stage !== 'apply' &&
        resumable.map((job) => (
          <ResumeBanner
            key={job.id}
            job={job}
            onResume={() => resume(job)}
            onDiscard={() => discard(job)}
          />
        ))}
      <p className="bulk-scope">
        Editing {selection.rows.length} listing(s): {selection.scope}.
      </p>
      {(selection.excluded.length > 0 || selection.missing.length > 0) && (
        <details className="bulk-excluded" open={selection.rows.length === 0}>
          <summary>
            {selection.excluded.length + selection.missing.length} selected listing(s) left out
          </summary>
          <ul>
            {selection.excluded.map((row) => (
              <li key={row.id}>
                {row.title} ({row.id}): {row.reason}
              </li>
            ))}
            {selection.missing.map((id) => (
              <li key={id}>{id}: not in the catalogue</li>
            ))}
          </ul>
        </details>
      )}

      {stage === 'apply' && runner ? (
        <ApplyPanel
          runner={runner}
          onClose={() => {
            forgetRunner(runner.job.id);
            const state = runner.getProgress().state;
            if (state === 'finished' || state === 'cancelled')
              void jobStore().remove(runner.job.id);
            setRunner(null);
            onRestart();
          }}
        />
      ) : (
        <>
          <div className="bulk-layout" hidden={stage !== 'edit'}>
            <aside className="bulk-side">
              <BulkActionsPanel
                grid={grid}
                getValues={form.getValues}
                onSummary={(next) => {
                  setSummary(next);
                  setAnnouncement(next.title);
                }}
              />
              {summary && (
                <div className="panel bulk-summary" role="status" aria-label="Last action">
                  <p>
                    <strong>{summary.title}</strong>
                  </p>
                  {summary.lines.map((line) => (
                    <p key={line}>{line}</p>
                  ))}
                </div>
              )}
              <CsvTools
                matchingCount={params.has(IDS_PARAM) ? null : matching.length}
                editorCount={selection.rows.length}
                catalogue={catalogueById}
                current={currentEdits}
                onImport={onImport}
                onExportSelection={() =>
                  download('slabdesk-selection.csv', exportCsv(selection.rows, currentEdits()))
                }
                onExportMatching={() =>
                  download(
                    'slabdesk-listings.csv',
                    exportCsv(matching.map((row) => catalogueById.get(row.id)!).filter(Boolean)),
                  )
                }
              />
            </aside>
            <form
              className="bulk-form"
              aria-label="Bulk edit"
              onSubmit={(event) => void openPreview(event)}
              noValidate
            >
              <MarginBasisProvider>
                <BulkGrid
                  form={form}
                  rows={selection.rows}
                  originals={originals}
                  onAnnounce={setAnnouncement}
                  handleRef={grid}
                />
              </MarginBasisProvider>
              <p className="bulk-announce" role="status" aria-live="polite">
                {announcement}
              </p>
              <div className="button-row">
                <button type="submit" className="primary" disabled={selection.rows.length === 0}>
                  Preview changes
                </button>
              </div>
            </form>
          </div>
          {stage === 'preview' && plan && (
            <BelowCostNotice
              plan={plan}
              prices={new Map(form.getValues('rows').map((row) => [row.id, row.price]))}
              originals={new Map(selection.rows.map((row) => [row.id, row.price]))}
              catalogue={new Map(products.map((row) => [row.id, row]))}
              onSetPrices={(prices, label) => {
                const writes = selection.rows.flatMap((row, index) =>
                  prices.has(row.id)
                    ? [{ index, field: 'price' as const, value: prices.get(row.id)! }]
                    : [],
                );
                grid.current?.apply(label, writes);
                setPlan(planBulkEdit(selection.rows, form.getValues('rows')));
              }}
            />
          )}
          {stage === 'preview' && plan && (
            <PreviewPanel
              plan={plan}
              estimate={estimate}
              applying={false}
              onApply={apply}
              onBack={() => setStage('edit')}
            />
          )}
        </>
      )}
    </>
  );
}

/** The bulk-edit page: the catalogue, then the editor over the selection in the URL. */
export function BulkEditPage() {
  return (
    <ReadOnlyGate title="Bulk edit">
      <BulkEditContent />
    </ReadOnlyGate>
  );
}

function BulkEditContent() {
  const [params] = useSearchParams();
  const { query, rows, availability } = useCatalogue();
  // Wait for the availability join (when needed) so sold listings are known before editing.
  const joined = !availability || availability.isSuccess || availability.isError;
  const [generation, setGeneration] = useState(0);
  const data = query.data;
  return (
    <section aria-labelledby="bulk-heading" className="bulk-page">
      <div className="page-head">
        <h1 id="bulk-heading">Bulk edit</h1>
        <div className="page-actions">
          <Link to={paths.listings.to(withoutIds(params))}>Back to listings</Link>
        </div>
      </div>
      <CatalogueLoadState query={query} availability={availability} rows={rows} />
      {data?.complete && joined && (
        <BulkEditor
          key={generation}
          products={rows}
          params={params}
          onRestart={() => setGeneration((g) => g + 1)}
        />
      )}
    </section>
  );
}

function withoutIds(params: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete('ids');
  return next;
}

export { BulkEditPage as Component };
