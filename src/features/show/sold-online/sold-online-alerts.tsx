import { useSyncExternalStore } from 'react';
import { Link } from 'react-router';
import type { HubSoldOnlineAlert } from '../../../client/hub-messages';
import { useHubStream } from '../../../api/live/live-context';
import { useDismissedAlerts } from './dismissed-alerts';
import './sold-online.css';

const NONE: readonly HubSoldOnlineAlert[] = [];
const noop = () => () => {};

/**
 * Each case slab the hub's stream says sold online, on every page, until dismissed here: "Sold
 * online: pull Mbappé #77 BGS 7.5 (cert 7929686819) from the table", in a seller's words.
 */
export function SoldOnlineAlerts() {
  const stream = useHubStream();
  const alerts = useSyncExternalStore(
    stream?.subscribe ?? noop,
    () => stream?.getState().soldOnline ?? NONE,
  );
  const [dismissed, dismiss] = useDismissedAlerts();
  const shown = alerts.filter((alert) => !dismissed.has(alert.listingId));
  if (shown.length === 0) return null;
  return (
    <div className="sold-online-alerts">
      {shown.map((alert) => (
        <div key={alert.listingId} role="alert" className="banner banner-error sold-online-alert">
          <p className="sold-online-words">
            {/* A stranger's title or show name in <bdi>: a bidi control in it (U+202E) turns only
                itself around, never the cert and the words after it. */}
            <strong>
              Sold online: pull <bdi>{alert.title}</bdi>
              {alert.certNumber ? ` (cert ${alert.certNumber})` : ''} from the table
            </strong>
          </p>
          <p>
            It was in your case for <bdi>{alert.showName}</bdi>. The buyer paid online: ship it to
            the hub.
          </p>
          <p className="sold-online-actions">
            <Link to={alert.url}>Open its counter view</Link>
            <button
              type="button"
              onClick={() => dismiss(alert.listingId)}
              aria-label={`Dismiss: ${alert.title} pulled`}
            >
              Dismiss
            </button>
          </p>
        </div>
      ))}
    </div>
  );
}
