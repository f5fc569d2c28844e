import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import type { ReactNode } from 'react';
import { useApiClient } from '../../../api/api-context';
import { catalogueQuery } from '../../../api/listings/catalogue-query';
import { showCsvUrl } from '../../../api/shows/show-api';
import { showQuery, showsQuery } from '../../../api/shows/show-queries';
import { formatDollars } from '../../../shared/money';
import { useOutboxItems } from '../../../api/outbox/outbox';
import { useOffline } from '../../../api/offline';
import { ErrorBanner } from '../../../components/error-banner';
import { Loading } from '../../../components/states';
import { countOf, formatDay } from '../../../lib/format';
import { paths } from '../../../shared/paths';
import { CaseTable } from './case-table';
import { OfflineNote } from './offline-note';
import { OutboxPanel } from './outbox-panel';
import { asLedgerRow, phoneSales, showTotals } from './waiting-sales';
import { WaitingPart } from './waiting-part';
import { SalesTable } from './sales-table';
import './shows.css';

/** A show: its takings, every sale at the table, and the case that travelled with its actions. */
/** A money figure of the totals, with the part of it waiting on this phone when there is one. */
function MoneyTotal(props: {
  term: string;
  cents: number;
  waitingCents: number;
  children?: ReactNode;
}) {
  return (
    <div>
      <dt>{props.term}</dt>
      <dd className="figure">{formatDollars(props.cents)}</dd>
      {props.children}
      <WaitingPart as="dd" show={props.waitingCents !== 0}>
        <span className="figure">{formatDollars(props.waitingCents)}</span> of it
      </WaitingPart>
    </div>
  );
}

export function ShowPage() {
  const { showKey = '' } = useParams();
  const client = useApiClient();
  const queryClient = useQueryClient();
  const page = useQuery(showQuery(client, showKey));
  const shows = useQuery(showsQuery(client));
  const catalogue = useQuery(catalogueQuery(client, queryClient));
  const writes = useOutboxItems();
  const offline = useOffline();
  const summary = shows.data?.find((show) => show.key === showKey);
  const show = page.data?.show ?? summary;
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
  const rows = catalogue.data?.rows ?? [];
  const byId = new Map(rows.map((row) => [row.id, row]));
  const caseRows = show.caseListingIds.map((id) => ({ id, row: byId.get(id) }));

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
          <MoneyTotal term="Cash taken" cents={totals.cashCents} waitingCents={waiting.cashCents} />
          <MoneyTotal
            term="Card payments"
            cents={totals.cardCents}
            waitingCents={waiting.cardCents}
          />
          <MoneyTotal
            term="Other payments"
            cents={totals.otherCents}
            waitingCents={waiting.otherCents}
          />
          <MoneyTotal
            term="Trade value"
            cents={totals.tradeValueCents}
            waitingCents={waiting.tradeValueCents}
          >
            <dd className="muted">{countOf(totals.trades, 'card')} taken in trade</dd>
          </MoneyTotal>
          <MoneyTotal
            term="Discounts given"
            cents={totals.discountCents}
            waitingCents={waiting.discountCents}
          />
          <div>
            <dt>Cards sold</dt>
            <dd className="figure">{totals.cardsSold}</dd>
            <WaitingPart as="dd" show={waiting.cardsSold > 0}>
              <span className="figure">{waiting.cardsSold}</span> of them
            </WaitingPart>
          </div>
          <MoneyTotal term="Sales" cents={totals.salesCents} waitingCents={waiting.salesCents} />
          <div>
            <dt>Margin against cost</dt>
            <dd className="figure">{formatDollars(totals.marginCents)}</dd>
            {totals.withoutCost > 0 && (
              <dd className="muted">{totals.withoutCost} sold without a known cost, not counted</dd>
            )}
          </div>
          {totals.voided > 0 && (
            <div>
              <dt>Undone, not counted</dt>
              <dd className="figure">{totals.voided}</dd>
            </div>
          )}
        </dl>
      )}
      {totals.soldOnline > 0 && (
        <p className="banner banner-error" role="alert">
          <strong>
            {totals.soldOnline === 1
              ? '1 card sold here had already sold online.'
              : `${totals.soldOnline} cards sold here had already sold online.`}
          </strong>{' '}
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
      {caseRows.length === 0 ? (
        <p>
          No listings marked for this show: select them in{' '}
          <Link to={paths.listings.to()}>Listings</Link> and choose “Bring these to the show”.
        </p>
      ) : (
        <CaseTable rows={caseRows} />
      )}
    </section>
  );
}

export { ShowPage as Component };
