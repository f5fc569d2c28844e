import { useApiClient } from '../api/api-context';
import { useThrottledHubState } from '../api/live/live-context';
import { useNow } from '../lib/use-now';
import { useThrottledStore } from '../api/live/use-throttled-store';

/** The meter redraws at most this often, however many requests come and go. */
const REDRAW_MS = 250;

/** The rate-limit bucket as a live meter, anchored on `X-Service-Api-Call-Limit`. */
export function BucketMeter({
  compact = false,
  label: name = 'API capacity',
}: {
  compact?: boolean;
  label?: string;
}) {
  const client = useApiClient();
  const state = useThrottledStore(client.transport.subscribe, client.transport.getState, REDRAW_MS);
  const hub = useThrottledHubState(REDRAW_MS);
  const now = useNow(500);
  const shared = hub.connection === 'open' ? hub.bucket : undefined;
  const own = client.transport.pacer.snapshot();
  const bucket = shared ?? own;
  // The server's figure drains between its messages at the key's rate.
  const level = shared
    ? Math.max(0, shared.level - ((now - (hub.bucketAt ?? now)) / 1000) * shared.perSecond)
    : own.level;
  const capacity = shared?.capacity ?? state.last?.callLimit?.capacity ?? bucket.capacity;
  const used = Math.min(capacity, Math.round(level));
  const label = `API capacity: ${used} of ${capacity} calls to the marketplace in use; ${bucket.perSecond} free up each second, and at ${capacity} the dashboard waits its turn`;
  return (
    <div className={`bucket${compact ? ' bucket-compact' : ''}`}>
      <label title={compact ? label : undefined}>
        <span className="bucket-name">{name}</span>{' '}
        <meter
          min={0}
          max={capacity}
          low={capacity * 0.5}
          high={capacity * 0.8}
          value={used}
          aria-label={label}
        />{' '}
        <span className="bucket-figure">
          {used} of {capacity}
        </span>
      </label>
      {!compact && (
        <p className="muted">
          {shared ? 'Shared by every tab (the server paces them) · ' : ''}
          Refills {bucket.perSecond} per second · {bucket.inFlight} in flight · {bucket.waiting}{' '}
          waiting · {state.counts.requests} requests, {state.counts.rateLimited} rate-limited,{' '}
          {state.counts.retried} retried
          {state.last?.requestId ? (
            <>
              {' '}
              · last request <code>{state.last.requestId}</code>
            </>
          ) : null}
        </p>
      )}
    </div>
  );
}
