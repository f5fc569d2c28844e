import { useQueryClient } from '@tanstack/react-query';
import { useApiClient } from '../../../api/api-context';
import { outbox, pendingOf, useOutboxItems, type OutboxItem } from '../../../api/outbox/outbox';
import { dropHeld, sendAnyway, syncOutbox } from '../../../api/outbox/outbox-sync';
import { formatDateTime } from '../../../lib/format';

const STATE_WORDS: Record<OutboxItem['state'], string> = {
  waiting: 'Waiting',
  sending: 'Sending',
  done: 'Sent',
  conflict: 'Conflict: settle it',
  failed: 'Not sent',
  held: 'Kept for its maker',
  dropped: 'Dropped',
};

/**
 * "N changes waiting": what was made at the table and is not through yet, oldest first, each
 * with its outcome once sent; conflicts stay until the seller settles them.
 */
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
      <h2 id="outbox-heading">
        {waiting.length === 1 ? '1 change waiting' : `${waiting.length} changes waiting`}
      </h2>
      {waiting.length > 0 && (
        <p>
          Saved on this device; sent in order when the connection is back.{' '}
          <button type="button" onClick={() => void syncOutbox(client, queryClient)}>
            Send now
          </button>
        </p>
      )}
      <table className="simple-table stack-table outbox-table">
        <caption className="visually-hidden">Changes made here, oldest first</caption>
        <thead>
          <tr>
            <th scope="col">Made</th>
            <th scope="col">Change</th>
            <th scope="col">State</th>
            <th scope="col">Outcome</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((item) => (
            <tr
              key={item.seq}
              className={
                item.state === 'conflict' || item.state === 'held' ? 'row-conflict' : undefined
              }
            >
              <td className="figure" data-label="Made">
                {formatDateTime(item.madeAt)}
              </td>
              <td className="stack-title">{item.label}</td>
              <td data-label="State">
                <strong>{STATE_WORDS[item.state]}</strong>
              </td>
              <td>
                {item.outcome}
                {item.state === 'conflict' && (
                  <span className="outbox-settle">
                    {item.kind === 'set-price' && (
                      <button
                        type="button"
                        onClick={() => void sendAnyway(client, queryClient, item)}
                      >
                        Send my price anyway
                      </button>
                    )}
                    <button type="button" onClick={() => void outbox().remove(item.seq)}>
                      {item.kind === 'set-price' ? 'Drop my change' : 'Settled'}
                    </button>
                  </span>
                )}
                {item.state === 'held' && (
                  <span className="outbox-settle">
                    <button type="button" onClick={() => void dropHeld(item)}>
                      Drop it
                    </button>
                  </span>
                )}
                {item.state === 'dropped' && (
                  <span className="outbox-settle">
                    <button type="button" onClick={() => void outbox().remove(item.seq)}>
                      Clear
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
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
