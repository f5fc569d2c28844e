import type { ApiError } from '../client';
import { Fact } from './fact';

/** For support: the error's code, HTTP status, request id and raw message, behind "Details". */
export function ErrorDetails({ error }: { error: ApiError }) {
  return (
    <details className="error-details">
      <summary>Details</summary>
      <dl className="banner-meta">
        <Fact label="Code">
          <code>{error.code}</code>
        </Fact>
        {error.status > 0 && <Fact label="HTTP status">{error.status}</Fact>}
        <Fact label="Request id">
          <code>{error.requestId ?? 'none'}</code>
        </Fact>
        <Fact label="Message">{error.message}</Fact>
      </dl>
    </details>
  );
}
