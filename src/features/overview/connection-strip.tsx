import { useQuery } from '@tanstack/react-query';
import { BucketMeter } from '../../components/bucket-meter';
import { QueryErrorBanner } from '../../components/error-banner';
import { useApiClient } from '../../lib/api-context';
import { pingQuery } from '../../lib/connection-query';
import { formatDateTime } from '../../lib/format';

/**
 * The connection's details, folded: the frame above every page already shows the mode, the
 * seller, live updates and the API capacity once, so the overview only offers the rest.
 */
export function ConnectionStrip() {
  const client = useApiClient();
  const ping = useQuery(pingQuery(client));
  return (
    <section className="connection-strip" aria-label="Connection">
      <QueryErrorBanner query={ping} title="The API did not answer /ping" />
      <details>
        <summary>Connection details</summary>
        {ping.data ? (
          <dl className="facts">
            <dt>Mode</dt>
            <dd>
              {ping.data.mode === 'test'
                ? 'Test: test records only; buyers see nothing'
                : 'Live: real listings and orders'}
            </dd>
            <dt>Seller</dt>
            <dd>
              <code>{ping.data.seller_id}</code>
            </dd>
            <dt>Key id</dt>
            <dd>
              <code>{ping.data.key_id}</code>
            </dd>
            <dt>API version</dt>
            <dd>{ping.data.api_version}</dd>
            <dt>Scopes</dt>
            <dd>{ping.data.scopes.join(', ')}</dd>
            <dt>Server time</dt>
            <dd>{formatDateTime(ping.data.server_time)}</dd>
          </dl>
        ) : (
          <p className="muted">Waiting for the API's answer to /ping.</p>
        )}
        <BucketMeter />
      </details>
    </section>
  );
}
