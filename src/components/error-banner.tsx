import { isApiError } from '../client';
import { formatDateTime } from '../lib/format';
import { noteSellerAsked } from '../api/kept/seller-asked';

/**
 * An error that belongs to no field: what happened, its code and request id; a missing scope named.
 */
export function ErrorBanner({
  error,
  title = 'Something went wrong',
  scope,
  onRetry,
}: {
  error: unknown;
  title?: string;
  /** The scope this part of the dashboard needs, shown for 403 insufficient_scope. */
  scope?: string;
  onRetry?: () => void;
}) {
  if (!error) return null;
  const api = isApiError(error) ? error : undefined;
  let message = error instanceof Error ? error.message : String(error);
  if (api?.code === 'insufficient_scope') {
    message = scope
      ? `This API key lacks the scope ${scope}. Create a key with ${scope} to see this page.`
      : `This API key lacks the scope this needs. ${api.message}`;
  } else if (api?.code === 'invalid_api_key') {
    message = 'The API key was refused (missing, revoked or expired). Check SVC_API_KEY.';
  } else if (api?.code === 'upstream_paused' && api.pausedUntil !== undefined) {
    // The server wrote the end of the pause in its own zone: say it in the seller's.
    const asked = /^(The API asked us to wait [^;]+);/.exec(api.message)?.[1];
    const until = formatDateTime(new Date(api.pausedUntil).toISOString());
    message = `${asked ?? 'The API asked us to pause'}; writes and reads are paused until ${until}.`;
  } else if (api?.code === 'rate_limited') {
    message = `The rate limit is reached. ${api.retryAfter ? `Retry in ${Math.ceil(api.retryAfter)} s.` : ''}`;
  }
  return (
    <div className="banner banner-error" role="alert">
      <p className="banner-title">
        <strong>{title}</strong>
      </p>
      <p>{message}</p>
      {api && (
        <dl className="banner-meta">
          <dt>Code</dt>
          <dd>
            <code>{api.code}</code>
          </dd>
          {api.status > 0 && (
            <>
              <dt>HTTP status</dt>
              <dd>{api.status}</dd>
            </>
          )}
          <dt>Request id</dt>
          <dd>
            <code>{api.requestId ?? 'none'}</code>
          </dd>
        </dl>
      )}
      {onRetry && (
        <button type="button" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** A query's error as a banner with a retry, or nothing while the query has not failed. */
export function QueryErrorBanner({
  query,
  title,
  scope,
}: {
  query: { isError: boolean; error: unknown; refetch: () => unknown };
  title: string;
  scope?: string;
}) {
  if (!query.isError) return null;
  return (
    <ErrorBanner
      error={query.error}
      title={title}
      {...(scope === undefined ? {} : { scope })}
      onRetry={() => {
        // The seller's ask: a kept collection's back-off after a failure does not hold it.
        noteSellerAsked();
        void query.refetch();
      }}
    />
  );
}
