import { useCallback, useDeferredValue } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { useApiClient } from '../../../api/api-context';
import type { ListingRead } from '../../../client';
import { catalogueQuery, type Catalogue } from '../../../api/listings/catalogue-query';
import { isOlder } from '../../../api/kept/kept-rows';
import { showCsvUrl } from '../../../api/shows/show-api';
import { showQuery, showsQuery } from '../../../api/shows/show-queries';
import { formatDollars } from '../../../shared/money';
import type { ShowTotals } from '../../../shared/show-tenders';
import { useOutboxItems } from '../../../api/outbox/outbox';
import { useOffline } from '../../../api/offline';
import { ErrorBanner } from '../../../components/error-banner';
import { Loading } from '../../../components/states';
import { countOf, formatDay } from '../../../lib/format';
import { paths } from '../../../shared/paths';
import { CaseTable, type CaseRow } from './case-table';
import { OfflineNote } from './offline-note';
import { OutboxPanel } from './outbox-panel';
import { asLedgerRow, phoneSales, showTotals } from './waiting-sales';
import { totalFigure, WaitingPart } from './waiting-part';
import { SalesTable } from './sales-table';
import './shows.css';
import { Fact } from '../../../components/fact';

/** The figures of the totals, in the order the page says them (all money but the cards sold). */
const TOTALS = [
  ['Cash taken', 'cashCents'],
  ['Card payments', 'cardCents'],
  ['Other payments', 'otherCents'],
  ['Trade value', 'tradeValueCents'],
  ['Discounts given', 'discountCents'],
  ['Cards sold', 'cardsSold'],
  ['Sales', 'salesCents'],
] as const satisfies readonly (readonly [string, keyof ShowTotals])[];

/** The case's listings, the newer of the kept catalogue's row and the show answer's, by id. */
function caseRowsOf(
  catalogue: Catalogue | undefined,
  ids: readonly string[] = [],
  answered: readonly Record<string, unknown>[] = [],
): CaseRow[] {
  const wanted = new Set(ids);
  const byId = new Map<string, ListingRead>();
  // The hub's rows, as its change feed sends them (the kept catalogue's rows are the same).
  for (const row of answered as readonly ListingRead[]) byId.set(row.id, row);
  for (const row of catalogue?.rows ?? []) {
    if (wanted.has(row.id) && !isOlder(row, byId.get(row.id))) byId.set(row.id, row);
  }
  return ids.map((id) => ({ id, row: byId.get(id) }));
}

/** A show: its takings, every sale at the table, and the case that travelled with its actions. */
export function ShowPage() {
  const { showKey = '' } = useParams();
  const client = useApiClient();
  const queryClient = useQueryClient();
  const page = useQuery(showQuery(client, showKey));
  const shows = useQuery(showsQuery(client));
  const writes = useOutboxItems();
  const offline = useOffline();
  const summary = shows.data?.find((show) => show.key === showKey);
  const show = page.data?.show ?? summary;
  const caseIds = show?.caseListingIds;
  const answered = page.data?.caseListings;
  // Only the case's rows from the kept catalogue: its other changes do not redraw the page. The
  // catalogue (kept for scanning offline) is read once the show's answer has drawn the case.
  const caseRows = useQuery({
    ...catalogueQuery(client, queryClient),
    enabled: !page.isPending,
    select: useCallback(
      (catalogue: Catalogue) => caseRowsOf(catalogue, caseIds, answered),
      [caseIds, answered],
    ),
  }).data;
  // The case's sale forms drawn in a transition, in slices: the page first, then the case.
  const shownCaseRows = useDeferredValue(caseRows);
  if (!show) {
    if (page.isPending) return <Loading label="Loading the show…" />;
    return (
      <section>
        <h1>Show</h1>
        <ErrorBanner error={page.error} title="The show could not be loaded" />
        <Link to={paths.shows.to()}>All shows</Link>
      </section>
    );
  }
  // The ledger as last read (kept on this phone), with this phone's sales it does not hold yet.
  const phone = phoneSales(writes, showKey, page.data?.entries);
  const { totals, waiting } = showTotals(page.data?.totals ?? summary?.totals, phone);
  const entries = [...(page.data?.entries ?? []), ...phone.map(asLedgerRow)].sort((a, b) =>
    a.soldAt.localeCompare(b.soldAt),
  );

  return (
    <section aria-labelledby="show-heading" className="show-page">
      <p className="breadcrumb">
        <Link to={paths.shows.to()}>Card shows</Link> / {show.name}
      </p>
      <div className="page-head">
        <h1 id="show-heading">
          {show.name} <span className="muted figure">{formatDay(show.date)}</span>
        </h1>
        <div className="page-actions">
          <a className="button" href={showCsvUrl(client, show.key)} download>
            Download CSV for the books
          </a>
        </div>
      </div>
      <OfflineNote
        offline={offline}
        notRead={page.isError || page.fetchStatus === 'paused'}
        readAt={page.data ? page.dataUpdatedAt : undefined}
        waiting={waiting.cardsSold}
      />
      <OutboxPanel />
      {(page.data || summary) && (
        <dl className="show-stats" aria-label="Totals">
          {TOTALS.map(([term, name]) => (
            <div key={name}>
              <dt>{term}</dt>
              <dd className="figure">{totalFigure(name, totals[name])}</dd>
              {name === 'tradeValueCents' && (
                <dd className="muted">{countOf(totals.trades, 'card')} taken in trade</dd>
              )}
              <WaitingPart as="dd" name={name} waiting={waiting} />
            </div>
          ))}
          <div>
            <dt>Margin against cost</dt>
            <dd className="figure">{formatDollars(totals.marginCents)}</dd>
            {totals.withoutCost > 0 && (
              <dd className="muted">{totals.withoutCost} sold without a known cost, not counted</dd>
            )}
          </div>
          {totals.voided > 0 && (
            <Fact box label="Undone, not counted" figure>
              {totals.voided}
            </Fact>
          )}
        </dl>
      )}
      {totals.soldOnline > 0 && (
        <p className="banner banner-error" role="alert">
          <strong>{countOf(totals.soldOnline, 'card')} sold here had already sold online.</strong>{' '}
          Settle with the buyer at the table.
        </p>
      )}

      <h2>Sales</h2>
      {entries.length === 0 ? (
        <p>
          {totals.cardsSold === 0
            ? 'No sales recorded yet.'
            : 'The sales are in the ledger; this device has not read them yet.'}
        </p>
      ) : (
        <SalesTable showKey={show.key} entries={entries} />
      )}

      <h2>The case</h2>
      {show.caseListingIds.length === 0 ? (
        <p>
          No listings marked for this show: select them in{' '}
          <Link to={paths.listings.to()}>Listings</Link> and choose “Bring these to the show”.
        </p>
      ) : (
        <CaseTable
          rows={shownCaseRows ?? caseRowsOf(undefined, show.caseListingIds, answered)}
          show={show}
        />
      )}
    </section>
  );
}

export { ShowPage as Component };
