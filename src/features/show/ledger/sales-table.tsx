import { useMemo } from 'react';
import { Link } from 'react-router';
import type { LedgerEntry } from '../../../api/shows/show-api';
import { formatDollars } from '../../../shared/money';
import { DataTable, type CardLayout, type Column } from '../../../components/data-table';
import { formatDateTime } from '../../../lib/format';
import { paths } from '../../../shared/paths';
import { tenderWords } from '../../../shared/show-tenders';
import { UndoSale } from '../sold-here/undo-sale';

/** A sale of the ledger, or one this phone made that the ledger as read does not hold yet. */
export type SaleRow = LedgerEntry & { waiting?: boolean };

const isPhone = (entry: SaleRow) => 'waiting' in entry;

/** The card sold, with what the seller must know of it (waiting, undone, sold online too). */
function CardCell({ entry }: { entry: SaleRow }) {
  return (
    <>
      {entry.title}
      {isPhone(entry) && (
        <p className="waiting-mark">
          {entry.waiting ? 'Waiting to be sent' : 'Sent from this phone'}
        </p>
      )}
      {entry.voided && (
        <p className="muted">
          Undone {formatDateTime(entry.voided.at)} by {entry.voided.by}
          {entry.voided.reason ? `: ${entry.voided.reason}` : ''} (not counted)
        </p>
      )}
      {!entry.voided && entry.soldOnline && (
        <p className="sold-online">SOLD ONLINE TOO: settle with the buyer at the table.</p>
      )}
      {!entry.voided && entry.offMarket === 'not_taken_off' && (
        <p className="sold-online">Still on sale online: {entry.note}</p>
      )}
    </>
  );
}

function columnsOf(showKey: string): readonly Column<SaleRow>[] {
  return [
    {
      id: 'sold',
      header: 'Sold',
      cell: (entry) => <span className="figure">{formatDateTime(entry.soldAt)}</span>,
    },
    { id: 'card', header: 'Card', cell: (entry) => <CardCell entry={entry} /> },
    {
      id: 'price',
      header: 'Price',
      align: 'right',
      cell: (entry) => (
        <span className="figure">
          {formatDollars(entry.priceCents)}
          {entry.discountCents > 0 && (
            <span className="muted"> ({formatDollars(entry.discountCents)} off)</span>
          )}
        </span>
      ),
    },
    { id: 'paid', header: 'Paid with', cell: (entry) => tenderWords(entry.tenders) },
    {
      id: 'margin',
      header: 'Margin',
      align: 'right',
      cell: (entry) => (
        <span className="figure">
          {entry.costCents === null || entry.voided
            ? '—'
            : formatDollars(entry.priceCents - entry.costCents)}
        </span>
      ),
    },
    { id: 'by', header: 'By', cell: (entry) => entry.soldBy },
    {
      id: 'actions',
      header: 'Actions',
      headerHidden: true,
      labelled: false,
      cell: (entry) => (
        <div className="show-sale-actions">
          <Link
            className="button"
            to={paths.showReceipt.to(showKey, entry.key)}
            aria-label={`Receipt: ${entry.title}`}
          >
            Receipt
          </Link>
          {!entry.voided && !(isPhone(entry) && entry.waiting) && <UndoSale sale={entry} />}
        </div>
      ),
    },
  ];
}

/** On a phone each sale reads under its card. */
const STACKED: CardLayout = { title: 'card', fields: [] };

const rowClass = (entry: SaleRow) =>
  entry.voided
    ? 'row-voided'
    : entry.soldOnline
      ? 'row-conflict'
      : isPhone(entry)
        ? 'row-phone'
        : undefined;

/** Every sale at the show, oldest first, each with its receipt and its undo. */
export function SalesTable({ showKey, entries }: { showKey: string; entries: readonly SaleRow[] }) {
  const columns = useMemo(() => columnsOf(showKey), [showKey]);
  return (
    <DataTable
      caption="Sales at this show"
      rows={entries}
      columns={columns}
      getRowId={(entry) => entry.key}
      windowed={false}
      cards={STACKED}
      rowClassName={rowClass}
    />
  );
}
