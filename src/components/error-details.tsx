import type { ApiError } from '../client';

/** For support: the error's code, HTTP status, request id and raw message, behind "Details". */
export function ErrorDetails({ error }: { error: ApiError }) {
  return (
    <details className="error-details">
      <summary>Details</summary>
      <dl className="banner-meta">
        <dt>Code</dt>
        <dd>
          <code>{error.code}</code>
        </dd>
        {error.status > 0 && (
          <>
            <dt>HTTP status</dt>
            <dd>{error.status}</dd>
          </>
        )}
        <dt>Request id</dt>
        <dd>
          <code>{error.requestId ?? 'none'}</code>
        </dd>
        <dt>Message</dt>
        <dd>{error.message}</dd>
      </dl>
    </details>
  );
}
