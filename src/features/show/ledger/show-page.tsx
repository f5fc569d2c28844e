import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { useApiClient } from '../../../api/api-context';
import { catalogueQuery } from '../../../api/listings/catalogue-query';
import { showCsvUrl } from '../../../api/shows/show-api';
import { showQuery, showsQuery } from '../../../api/shows/show-queries';
import { formatCents } from '../../../api/shows/show-money';
import { pendingOf, useOutboxItems } from '../../../api/outbox/outbox';
import { ErrorBanner } from '../../../components/error-banner';
import { Loading } from '../../../components/states';
import { countOf, formatDateTime, formatMoney } from '../../../lib/format';
import { tenderWords } from '../../../shared/show-tenders';
import { paths } from '../../../shared/paths';
import { SoldHere } from '../sold-here/sold-here';
import { UndoSale } from '../sold-here/undo-sale';
import { CasePrice } from './case-price';
import { OfflineNote } from './offline-note';
import { OutboxPanel } from './outbox-panel';
import './shows.css';

/** A show: its takings, every sale at the table, and the case that travelled with its actions. */
export function ShowPage() {
  const { showKey = '' } = useParams();
  const client = useApiClient();
  const queryClient = useQueryClient();
  const page = useQuery(showQuery(client, showKey));
  const shows = useQuery(showsQuery(client));
  const catalogue = useQuery(catalogueQuery(client, queryClient));
  const writes = useOutboxItems();
  const summary = shows.data?.find((show) => show.key === showKey);
  const show = page.data?.show ?? summary;
  if (!show) {
    if (page.isPending) return <Loading label="Loading the show…" />;
    return (
      <section>
        <h1>Show</h1>
        <OfflineNote />
        <ErrorBanner error={page.error} title="The show could not be loaded" />
        <Link to={paths.shows.to()}>All shows</Link>
      </section>
    );
  }
  const totals = page.data?.totals ?? summary?.totals;
  const entries = page.data?.entries ?? [];
  const waitingSales = pendingOf(writes).filter(
    (item) => item.kind === 'sell-at-show' && item.showKey === showKey && item.state !== 'conflict',
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
          {show.name} <span className="muted figure">{show.date}</span>
        </h1>
        <div className="page-actions">
          <a className="button" href={showCsvUrl(client, show.key)} download>
            Download CSV for the books
          </a>
        </div>
      </div>
      <OfflineNote />
      {page.isError && page.data === undefined && (
        <p className="banner banner-warn" role="status">
          The ledger could not be read just now: showing what this device holds.
        </p>
      )}
      <OutboxPanel />
      {totals && (
        <dl className="show-stats" aria-label="Totals">
          <div>
            <dt>Cash taken</dt>
            <dd className="figure">{formatCents(totals.cashCents)}</dd>
          </div>
          <div>
            <dt>Card payments</dt>
            <dd className="figure">{formatCents(totals.cardCents)}</dd>
          </div>
          <div>
            <dt>Other payments</dt>
            <dd className="figure">{formatCents(totals.otherCents)}</dd>
          </div>
          <div>
            <dt>Trade value</dt>
            <dd className="figure">{formatCents(totals.tradeValueCents)}</dd>
            <dd className="muted">{countOf(totals.trades, 'card')} taken in trade</dd>
          </div>
          <div>
            <dt>Discounts given</dt>
            <dd className="figure">{formatCents(totals.discountCents)}</dd>
          </div>
          <div>
            <dt>Cards sold</dt>
            <dd className="figure">{totals.cardsSold}</dd>
          </div>
          <div>
            <dt>Sales</dt>
            <dd className="figure">{formatCents(totals.salesCents)}</dd>
          </div>
          <div>
            <dt>Margin against cost</dt>
            <dd className="figure">{formatCents(totals.marginCents)}</dd>
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
          {waitingSales.length > 0 && (
            <div>
              <dt>Not sent yet</dt>
              <dd className="figure">{waitingSales.length}</dd>
            </div>
          )}
        </dl>
      )}
      {totals && totals.soldOnline > 0 && (
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
        <p>No sales recorded yet.</p>
      ) : (
        <div className="table-scroll">
          <table className="simple-table stack-table">
            <caption className="visually-hidden">Sales at this show</caption>
            <thead>
              <tr>
                <th scope="col">Sold</th>
                <th scope="col">Card</th>
                <th scope="col" className="num">
                  Price
                </th>
                <th scope="col">Paid with</th>
                <th scope="col" className="num">
                  Margin
                </th>
                <th scope="col">By</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr
                  key={entry.key}
                  className={
                    entry.voided ? 'row-voided' : entry.soldOnline ? 'row-conflict' : undefined
                  }
                >
                  <td className="figure" data-label="Sold">
                    {formatDateTime(entry.soldAt)}
                  </td>
                  <td className="stack-title">
                    {entry.title}
                    {entry.voided && (
                      <p className="muted">
                        Undone {formatDateTime(entry.voided.at)} by {entry.voided.by}
                        {entry.voided.reason ? `: ${entry.voided.reason}` : ''} (not counted)
                      </p>
                    )}
                    {!entry.voided && entry.soldOnline && (
                      <p className="sold-online">
                        SOLD ONLINE TOO: settle with the buyer at the table.
                      </p>
                    )}
                    {!entry.voided && entry.offMarket === 'not_taken_off' && (
                      <p className="sold-online">Still on sale online: {entry.note}</p>
                    )}
                  </td>
                  <td className="num figure" data-label="Price">
                    <span>
                      {formatCents(entry.priceCents)}
                      {entry.discountCents > 0 && (
                        <span className="muted"> ({formatCents(entry.discountCents)} off)</span>
                      )}
                    </span>
                  </td>
                  <td data-label="Paid with">{tenderWords(entry.tenders, formatCents)}</td>
                  <td className="num figure" data-label="Margin">
                    {entry.costCents === null || entry.voided
                      ? '—'
                      : formatCents(entry.priceCents - entry.costCents)}
                  </td>
                  <td data-label="By">{entry.soldBy}</td>
                  <td>
                    <div className="show-sale-actions">
                      <Link
                        className="button"
                        to={paths.showReceipt.to(show.key, entry.key)}
                        aria-label={`Receipt: ${entry.title}`}
                      >
                        Receipt
                      </Link>
                      {!entry.voided && (
                        <UndoSale
                          sale={{
                            showKey: show.key,
                            entryKey: entry.key,
                            title: entry.title,
                            priceCents: entry.priceCents,
                            tenders: entry.tenders,
                          }}
                        />
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <h2>The case</h2>
      {caseRows.length === 0 ? (
        <p>
          No listings marked for this show: select them in{' '}
          <Link to={paths.listings.to()}>Listings</Link> and choose “Bring these to the show”.
        </p>
      ) : (
        <div className="table-scroll">
          <table className="simple-table stack-table">
            <caption className="visually-hidden">Listings brought to this show</caption>
            <thead>
              <tr>
                <th scope="col">Card</th>
                <th scope="col" className="num">
                  Asking
                </th>
                <th scope="col">At the table</th>
              </tr>
            </thead>
            <tbody>
              {caseRows.map(({ id, row }) => (
                <tr key={id}>
                  <td className="stack-title">
                    {row ? (
                      <Link to={paths.listing.to(id)}>{row.title}</Link>
                    ) : (
                      'Not in this device’s copy'
                    )}
                  </td>
                  <td className="num figure" data-label="Asking">
                    {formatMoney(row?.price)}
                  </td>
                  <td>
                    {row && row.unavailable_reason !== 'sold' && <CasePrice listing={row} />}
                    {row && <SoldHere listing={row} />}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export { ShowPage as Component };
