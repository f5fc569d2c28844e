import { useApiClient } from '../api/api-context';
import { useNow } from '../lib/use-now';
import { useThrottledStore } from '../api/live/use-throttled-store';

/** "10:42:05 PM", in the browser's time zone. */
const clockOf = (at: number) =>
  new Date(at).toLocaleTimeString(undefined, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });

/** While a read waits out a 429's `Retry-After`, says how long and when reading resumes. */
export function RateLimitWaitNote() {
  const client = useApiClient();
  const state = useThrottledStore(client.transport.subscribe, client.transport.getState, 250);
  const now = useNow(1000);
  const wait = state.rateLimitWait;
  if (!wait || wait.until <= now) return null;
  return (
    <p className="banner banner-info" role="status">
      The marketplace asked us to wait {Math.ceil(wait.seconds)} s; reading resumes at{' '}
      {clockOf(wait.until)}.
    </p>
  );
}
