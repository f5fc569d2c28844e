import { Link } from 'react-router';
import { useHubState } from '../lib/live/live-context';
import { paths } from '../lib/paths';

/**
 * Says plainly whether changes arrive live (webhooks pushed through the server) or by polling,
 * and why not live.
 */
export function LiveStatus() {
  const state = useHubState();
  if (state.healthy) {
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
  let reason: string;
  if (state.connection !== 'open') reason = 'the live stream is not connected';
  else if (state.status?.webhooks === 'off')
    reason = 'no webhook signing secret is set on the server';
  else reason = 'no webhooks have arrived for 10 minutes';
  return (
    <Link className="live-status live-off" to={paths.events.to()}>
      Polling: {reason}
    </Link>
  );
}
