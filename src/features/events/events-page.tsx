import { useState } from 'react';
import { formatDateTime } from '../../lib/format';
import { useHubState } from '../../api/live/live-context';
import type { HubStreamState } from '../../api/live/hub-stream';
import {
  notificationsOn,
  notificationsSupported,
  turnNotificationsOff,
  turnNotificationsOn,
} from '../../lib/notifications';
import { DeliveryTable } from './delivery-table';
import './events.css';

/** Posts refused before they could be trusted, only counted, so a stranger cannot fill the log. */
function RefusedPosts({ counts }: { counts: Record<string, number> | undefined }) {
  const reasons = Object.entries(counts ?? {}).filter(([, n]) => n > 0);
  const total = reasons.reduce((sum, [, n]) => sum + n, 0);
  if (total === 0) return null;
  const detail = reasons.map(([reason, n]) => `${reason.replace(/_/g, ' ')}: ${n}`).join(', ');
  return (
    <p>
      {total === 1 ? 'One message' : `${total} messages`} claiming to be from the marketplace could
      not be verified and {total === 1 ? 'was' : 'were'} ignored ({detail}).
    </p>
  );
}

/** Whether changes arrive by themselves, in one sentence. */
function headline(state: HubStreamState): string {
  if (state.healthy)
    return 'Live: the marketplace tells the dashboard of each change as it happens.';
  if (state.connection === 'connecting' && !state.status)
    return 'Connecting: until then, the pages check for changes every few seconds.';
  if (state.connection !== 'open')
    return 'Not live: the update stream is not connected, so the pages check every few seconds.';
  return 'Not live: the pages check the marketplace for changes every few seconds.';
}

/** What the server's webhook receiver got, newest first, and the seller's notice settings. */
export function EventsPage() {
  const state = useHubState();
  const entries = [...state.entries].reverse();
  const status = state.status;
  return (
    <section>
      <h1>Events</h1>
      {/* One sentence of one length in each state: nothing below moves as it connects. */}
      <p>{headline(state)}</p>
      <details>
        <summary>Details</summary>
        <p>
          {status ? (
            <>
              Notices are delivered to <code>{status.path}</code> on this server.
            </>
          ) : (
            'The server has not said yet where notices are delivered.'
          )}
          {status?.webhooks === 'registered' &&
            ' This dashboard signed up for the marketplace’s notices itself (the practice marketplace).'}
          {status?.webhooks === 'configured' &&
            status.lastDeliveryAt &&
            ` Last delivery ${formatDateTime(status.lastDeliveryAt)}.`}
        </p>
      </details>
      {status?.webhooks === 'configured' && !status.lastDeliveryAt && (
        <p className="banner banner-warn" role="note">
          Nothing has arrived since the dashboard started: check the notice address set in the
          marketplace’s developer settings (the deployment guide says how).
        </p>
      )}
      {status?.webhooks === 'off' && (
        <p className="banner banner-warn" role="note">
          The dashboard has no signing secret for the marketplace’s notices, so none can be trusted:
          the deployment guide says how to set one.
        </p>
      )}
      <RefusedPosts counts={status?.rejectedDeliveries} />
      <NotificationSettings />
      <h2>What happened</h2>
      {entries.length === 0 ? (
        <p>Nothing has arrived yet.</p>
      ) : (
        <DeliveryTable entries={entries} payloads={state.payloads} />
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
