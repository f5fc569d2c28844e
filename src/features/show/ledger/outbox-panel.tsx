import { useQueryClient } from '@tanstack/react-query';
import { useApiClient } from '../../../api/api-context';
import { outbox, pendingOf, useOutboxItems, type OutboxItem } from '../../../api/outbox/outbox';
import { dropHeld, sendAnyway, syncOutbox } from '../../../api/outbox/outbox-sync';
import { DataTable, type CardLayout, type Column } from '../../../components/data-table';
import { countOf, formatDateTime } from '../../../lib/format';

const STATE_WORDS: Record<OutboxItem['state'], string> = {
  waiting: 'Waiting',
  sending: 'Sending',
  done: 'Sent',
  conflict: 'Conflict: settle it',
  failed: 'Not sent',
  held: 'Kept for its maker',
  dropped: 'Dropped',
};

/** The states the seller settles, and the words of the button that does. */
const SETTLES: Partial<Record<OutboxItem['state'], string>> = {
  conflict: 'Settled',
  held: 'Drop it',
  dropped: 'Clear',
};

/** What came of a change, and what the seller can do about a conflict or a held change. */
function Outcome({ item }: { item: OutboxItem }) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const priceConflict = item.state === 'conflict' && item.kind === 'set-price';
  return (
    <>
      {item.outcome}
      {SETTLES[item.state] && (
        <span className="outbox-settle">
          {priceConflict && (
            <button type="button" onClick={() => void sendAnyway(client, queryClient, item)}>
              Send my price anyway
            </button>
          )}
          <button
            type="button"
            onClick={() =>
              void (item.state === 'held' ? dropHeld(item) : outbox().remove(item.seq))
            }
          >
            {priceConflict ? 'Drop my change' : SETTLES[item.state]}
          </button>
        </span>
      )}
      {item.details && (
        <details>
          <summary>Details</summary>
          <code>{item.details}</code>
          {item.kind === 'sell-at-show' && (
            <p>
              Keys: <code>{item.deactivateKey}</code>, <code>{item.sale.key}</code>
            </p>
          )}
        </details>
      )}
    </>
  );
}

const COLUMNS: readonly Column<OutboxItem>[] = [
  {
    id: 'made',
    header: 'Made',
    cell: (item) => <span className="figure">{formatDateTime(item.madeAt)}</span>,
  },
  { id: 'change', header: 'Change', cell: (item) => item.label },
  { id: 'state', header: 'State', cell: (item) => <strong>{STATE_WORDS[item.state]}</strong> },
  { id: 'outcome', header: 'Outcome', labelled: false, cell: (item) => <Outcome item={item} /> },
];

/** On a phone each change reads under what it was. */
const STACKED: CardLayout = { title: 'change', fields: [] };

const rowClass = (item: OutboxItem) =>
  item.state === 'conflict' || item.state === 'held' ? 'row-conflict' : undefined;

/** Changes made at the table not through yet, oldest first; conflicts stay until settled. */
export function OutboxPanel() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const items = useOutboxItems();
  const pending = pendingOf(items);
  const waiting = pending.filter((item) => item.state === 'waiting' || item.state === 'sending');
  const shown = items.slice(-30);
  if (shown.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="outbox-heading">
      <h2 id="outbox-heading">{countOf(waiting.length, 'change')} waiting</h2>
      {waiting.length > 0 && (
        <p>
          Saved on this device; sent in order when the connection is back.{' '}
          <button type="button" onClick={() => void syncOutbox(client, queryClient)}>
            Send now
          </button>
        </p>
      )}
      <DataTable
        caption="Changes made here, oldest first"
        rows={shown}
        columns={COLUMNS}
        getRowId={(item) => String(item.seq)}
        windowed={false}
        cards={STACKED}
        className="outbox-table"
        rowClassName={rowClass}
      />
    </section>
  );
}
