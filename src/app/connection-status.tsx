import { useSyncExternalStore } from 'react';
import { useApiClient } from '../lib/api-context';

/**
 * The connection area: the rate-limit bucket as a live meter (from every response's
 * `X-Service-Api-Call-Limit` and the client's bucket model) and the last request id.
 */
export function BucketMeter({ compact = false }: { compact?: boolean }) {
  const client = useApiClient();
  const state = useSyncExternalStore(client.transport.subscribe, client.transport.getState);
  const limit = state.last?.callLimit;
  const capacity = limit?.capacity ?? state.bucket.capacity;
  const used = limit?.used ?? 0;
  const label = `Rate-limit bucket: ${used} of ${capacity} used`;
  return (
    <div className={`bucket${compact ? ' bucket-compact' : ''}`}>
      <label>
        <span>Bucket</span>{' '}
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
          {state.counts.requests} requests · {state.counts.rateLimited} rate-limited ·{' '}
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
