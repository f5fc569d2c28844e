import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { paths } from '../../../shared/paths';
import { ErrorBanner } from '../../../components/error-banner';
import { UnsavedChangesGuard } from '../../../components/unsaved-changes-guard';
import { useApiClient } from '../../../api/api-context';
import { applyCatalogueSearch, readCatalogueSearch } from '../catalogue/catalogue-filters';
import type { CatalogueRow } from '../catalogue/catalogue-row';
import { useCatalogue } from '../catalogue/use-catalogue';
import { ReadOnlyGate } from '../../../components/write-actions';
import { CatalogueLoadState } from '../catalogue/catalogue-load-state';
import { ApplyPanel } from './apply-panel';
import { mergeCsvImport } from './csv-merge';
import { BulkActionsPanel } from './bulk-actions-panel';
import { applyListingWrite } from '../../../api/listings/write-answer';
import { IDS_PARAM, resolveSelection, type BulkSelection } from './bulk-selection';
import { download } from '../../../lib/download';
import { CsvTools } from './csv-tools';
import { BulkGrid } from './grid/bulk-grid';
import type { BulkForm, BulkGridHandle } from './grid/grid-types';
import { jobFromPlan } from './jobs/job';
import { runEnded, type WriteResult } from './jobs/job-runner';
import { jobStore } from './jobs/job-store';
import { forgetRunner, useBulkJobs } from './jobs/use-bulk-jobs';
import { ResumeBanner, RunningElsewhere } from './jobs/jobs-elsewhere';
import { OverlapWarning, useOverlapGuard } from './jobs/overlap-warning';
import { exportCsv, type CsvImport } from './logic/csv';
import { planBulkEdit, type Plan } from './logic/diff';
import { describeEstimate } from './logic/estimate';
import { toEditValues } from './logic/rows';
import { LeftOut, PreviewPanel } from './preview-panel';
import { BelowCostNotice, useBelowCost } from './below-cost-notice';
import './bulk-edit.css';
import { countOf } from '../../../lib/format';

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
  const [stage, setStage] = useState<Stage>('edit');
  const [plan, setPlan] = useState<Plan | null>(null);
  const bucket = useSyncExternalStore(
    client.transport.subscribe,
    client.transport.getState,
    client.transport.getState,
  ).bucket;

  const jobs = useBulkJobs(
    useCallback((result: WriteResult) => applyListingWrite(queryClient, result), [queryClient]),
    () => setStage('apply'),
  );
  const { runner, resumable, storeError } = jobs;
  const overlap = useOverlapGuard((job) => void jobs.start(job, true));

  const catalogueById = useMemo(() => new Map(products.map((p) => [p.id, p])), [products]);
  const matching = useMemo(
    () => applyCatalogueSearch(products, readCatalogueSearch(withoutIds(params))),
    [products, params],
  );

  const currentEdits = useCallback(
    () => new Map(form.getValues('rows').map((row) => [row.id, row])),
    [form],
  );

  const openPreview = form.handleSubmit((values) => {
    setPlan(planBulkEdit(selection.rows, values.rows));
    setStage('preview');
  });

  const apply = () => {
    if (!plan) return;
    const job = jobFromPlan(plan, `Bulk edit of ${countOf(plan.items.length, 'listing')}`);
    void overlap.apply(job);
  };

  const onImport = (parsed: CsvImport): string => {
    const merge = mergeCsvImport(parsed, selection.rows, form.getValues('rows'));
    for (const { index, value } of merge.promoted) {
      form.setValue(`rows.${index}.promoted`, value, { shouldDirty: true });
    }
    if (merge.kind === 'cells')
      return merge.summary(grid.current?.apply('Import CSV', merge.writes) ?? 0);
    setSelection((current) => ({
      ...current,
      rows: [...current.rows, ...merge.added],
      scope: `${current.scope} and ${merge.added.length} more from a CSV`,
    }));
    form.reset({ rows: merge.values });
    return merge.summary;
  };

  const below = useBelowCost(
    stage === 'preview' ? plan : null,
    new Map(form.getValues('rows').map((row) => [row.id, row.price])),
    new Map(products.map((row) => [row.id, row])),
  );
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
            onResume={() => jobs.resume(job)}
            onDiscard={() => void jobs.discard(job)}
          />
        ))}
      {jobs.elsewhere.map((entry) => (
        <RunningElsewhere
          key={entry.job.id}
          entry={entry}
          onReleased={(id) => void jobs.released(id)}
        />
      ))}
      {stage === 'preview' && <OverlapWarning guard={overlap} />}
      <p className="bulk-scope">
        Editing {countOf(selection.rows.length, 'listing')}: {selection.scope}.
      </p>
      <LeftOut
        excluded={selection.excluded}
        missing={selection.missing}
        open={selection.rows.length === 0}
      />

      {stage === 'apply' && runner ? (
        <ApplyPanel
          runner={runner}
          onClose={() => {
            forgetRunner(client, runner.job.id);
            if (runEnded(runner.getProgress().state)) void jobStore().remove(runner.job.id);
            jobs.setRunner(null);
            onRestart();
          }}
        />
      ) : (
        <>
          {/* Actions first in tab order, in a side column that never pushes the grid down. */}
          <div className="bulk-layout" hidden={stage !== 'edit'}>
            <aside className="bulk-side">
              <BulkActionsPanel
                grid={grid}
                getValues={form.getValues}
                onAnnounce={setAnnouncement}
              />
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
              <BulkGrid
                form={form}
                rows={selection.rows}
                originals={originals}
                onAnnounce={setAnnouncement}
                handleRef={grid}
              />
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
          {stage === 'preview' && plan && below.flagged.length > 0 && (
            <BelowCostNotice
              below={below}
              originals={new Map(selection.rows.map((row) => [row.id, row.priceText]))}
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
              blocked={below.blocked}
              belowCost={below.accepted ? below.flagged.length : 0}
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
  const { query, rows, availability, soldKnown } = useCatalogue();
  // Wait for the availability join and the orders (when needed) so sold listings are known first.
  const joined = soldKnown && (!availability || availability.isSuccess || availability.isError);
  const [generation, setGeneration] = useState(0);
  const data = query.data;
  // Once drawn, the editor stays: a later read must not take the grid's edits or the run away.
  const [drawn, setDrawn] = useState(false);
  const ready = data?.complete === true && joined;
  if (ready && !drawn) setDrawn(true);
  return (
    <section aria-labelledby="bulk-heading" className="bulk-page">
      <div className="page-head">
        <h1 id="bulk-heading">Bulk edit</h1>
        <div className="page-actions">
          <Link to={paths.listings.to(withoutIds(params))}>Back to listings</Link>
        </div>
      </div>
      <CatalogueLoadState query={query} availability={availability} rows={rows} />
      {(ready || drawn) && (
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
