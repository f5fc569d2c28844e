import { useSyncExternalStore } from 'react';
import { useApiClient } from '../lib/api-context';
import { useNow } from '../lib/use-now';

/**
 * The connection area: the rate-limit bucket as a live meter. Its level is the client's bucket
 * model, anchored on every response's `X-Service-Api-Call-Limit` and drained at the key's rate
 * between requests (re-read twice a second), with the requests waiting for room.
 */
export function BucketMeter({
  compact = false,
  label: name = 'Bucket',
}: {
  compact?: boolean;
  label?: string;
}) {
  const client = useApiClient();
  const state = useSyncExternalStore(client.transport.subscribe, client.transport.getState);
  useNow(500);
  const bucket = client.transport.pacer.snapshot();
  const capacity = state.last?.callLimit?.capacity ?? bucket.capacity;
  const used = Math.min(capacity, Math.round(bucket.level));
  const label = `Rate-limit bucket: ${used} of ${capacity} used`;
  return (
    <div className={`bucket${compact ? ' bucket-compact' : ''}`}>
      <label>
        <span>{name}</span>{' '}
        <meter
          min={0}
          max={capacity}
          low={capacity * 0.5}
          high={capacity * 0.8}
          value={used}
          aria-label={label}
        />{' '}
        <span>
          {used}/{capacity}
        </span>
      </label>
      {!compact && (
        <p className="muted">
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
