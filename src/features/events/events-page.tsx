import { useState } from 'react';
import { formatDateTime } from '../../lib/format';
import { useHubState } from '../../api/live/live-context';
import {
  notificationsOn,
  notificationsSupported,
  turnNotificationsOff,
  turnNotificationsOn,
} from '../../lib/notifications';
import { TableHead } from '../../components/table-head';
import { Figure, ShortDate } from '../../components/figure';

const OUTCOME_TEXT = {
  applied: 'Verified, applied',
  duplicate: 'Verified, already applied (ignored)',
  rejected: 'Rejected',
} as const;

/** Posts refused before they could be trusted, only counted, so a stranger cannot fill the log. */
function RefusedPosts({ counts }: { counts: Record<string, number> | undefined }) {
  const reasons = Object.entries(counts ?? {}).filter(([, n]) => n > 0);
  const total = reasons.reduce((sum, [, n]) => sum + n, 0);
  if (total === 0) return null;
  const detail = reasons.map(([reason, n]) => `${reason.replace(/_/g, ' ')}: ${n}`).join(', ');
  return (
    <p>
      {total === 1 ? 'One post' : `${total} posts`} to the webhook address could not be verified and{' '}
      {total === 1 ? 'was' : 'were'} refused without being shown ({detail}).
    </p>
  );
}

/** What the server's webhook receiver got, newest first, and the seller's notice settings. */
export function EventsPage() {
  const state = useHubState();
  const entries = [...state.entries].reverse();
  const status = state.status;
  return (
    <section>
      <h1>Events</h1>
      <p>
        {state.healthy
          ? 'Live: changes arrive from the API’s webhooks as they happen; the pages do not poll.'
          : 'Not live: the pages poll the API for changes.'}{' '}
        {status?.webhooks === 'registered' &&
          'This server registered its webhook endpoint with the embedded sandbox.'}
        {status?.webhooks === 'configured' &&
          (status.lastDeliveryAt
            ? `Last delivery ${formatDateTime(status.lastDeliveryAt)}.`
            : 'No webhook has arrived since the server started: check the endpoint registered with the API (see the deployment guide, docs/deploy.md).')}
        {status?.webhooks === 'off' &&
          'No webhook signing secret is set on the server (SVC_WEBHOOK_SECRET), so no delivery can be verified: see the deployment guide, docs/deploy.md.'}
        {!status && state.connection !== 'open' && ' The live stream is not connected.'}
      </p>
      {status && (
        <p>
          Deliveries go to <code>{status.path}</code> on this server.
        </p>
      )}
      <RefusedPosts counts={status?.rejectedDeliveries} />
      <NotificationSettings />
      <h2>Deliveries</h2>
      {entries.length === 0 ? (
        <p>No delivery has arrived yet.</p>
      ) : (
        <table className="simple-table stack-table">
          <caption className="visually-hidden">Webhook deliveries, newest first</caption>
          <TableHead columns={['Received', 'Topic', 'Event', 'Outcome']} />
          <tbody>
            {entries.map((entry, index) => (
              <tr key={`${entry.at}-${entry.eventId ?? ''}-${index}`}>
                <td className="stack-title">
                  <ShortDate iso={entry.at} time />
                </td>
                <td data-label="Topic">
                  <Figure kind="code">{entry.topic ?? '—'}</Figure>
                </td>
                <td data-label="Event">
                  <span>
                    <Figure kind="code">
                      <code>{entry.eventId ?? '—'}</code>
                    </Figure>
                    {entry.attempt ? ` (attempt ${entry.attempt})` : ''}
                  </span>
                </td>
                <td data-label="Outcome">
                  {OUTCOME_TEXT[entry.outcome]}
                  {entry.reason ? `: ${entry.reason.replace(/_/g, ' ')}` : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function NotificationSettings() {
  const [on, setOn] = useState(notificationsOn);
  const [message, setMessage] = useState<string>();
  if (!notificationsSupported()) {
    return <p>This browser does not offer notifications.</p>;
  }
  return (
    <div>
      <h2>Notifications</h2>
      <p>
        {on
          ? 'This browser shows a notice for each new sale and for an order that must ship within a day.'
          : 'Turn on notices for each new sale and for an order that must ship within a day.'}
      </p>
      {on ? (
        <button
          type="button"
          onClick={() => {
            turnNotificationsOff();
            setOn(false);
          }}
        >
          Turn notifications off
        </button>
      ) : (
        <button
          type="button"
          onClick={() => {
            void turnNotificationsOn().then((permission) => {
              setOn(permission === 'granted');
              setMessage(
                permission === 'granted'
                  ? undefined
                  : 'The browser did not allow notifications for this site.',
              );
            });
          }}
        >
          Turn notifications on
        </button>
      )}
      {message && <p role="alert">{message}</p>}
    </div>
  );
}

export { EventsPage as Component };
