import { Link } from 'react-router';
import { useHubValue } from '../api/live/live-context';
import type { HubStreamState } from '../api/live/hub-stream';
import { paths } from '../shared/paths';

/** Why changes are not live (null when they are). */
function pollingReason(state: HubStreamState): string | null {
  if (state.healthy) return null;
  if (state.connection !== 'open') return 'the live stream is not connected';
  if (state.status?.webhooks === 'off') return 'no webhook signing secret is set on the server';
  return 'no webhooks have arrived for 10 minutes';
}

/**
 * Says plainly whether changes arrive live (webhooks pushed through the server) or by polling,
 * and why not live. It redraws only when that changes, not on every message of the stream.
 */
export function LiveStatus() {
  const reason = useHubValue(pollingReason);
  if (reason === null) {
    return (
      <Link
        className="live-status live-on"
        to={paths.events.to()}
        title="Changes arrive as they happen"
      >
        Live
      </Link>
    );
  }
  return (
    <Link className="live-status live-off" to={paths.events.to()}>
      Polling: {reason}
    </Link>
  );
}
