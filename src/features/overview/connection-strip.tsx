import { useQuery } from '@tanstack/react-query';
import { BucketMeter } from '../../components/bucket-meter';
import { QueryErrorBanner } from '../../components/error-banner';
import { ModeBadge } from '../../components/mode-badge';
import { useApiClient } from '../../lib/api-context';
import { pingQuery } from '../../lib/connection-query';
import { formatDateTime } from '../../lib/format';

/** The connection in one line (mode and API capacity); the developer's details fold out. */
export function ConnectionStrip() {
  const client = useApiClient();
  const ping = useQuery(pingQuery(client));
  return (
    <section className="connection-strip" aria-label="Connection">
      <QueryErrorBanner query={ping} title="The API did not answer /ping" />
      <div className="strip-row">
        {/* Always there, so the line keeps its height when the answer comes. */}
        <span className="strip-mode">
          {ping.data ? (
            <>
              <ModeBadge mode={ping.data.mode} />{' '}
              {ping.data.mode === 'test'
                ? 'test records only; buyers see nothing'
                : 'real listings and orders'}
            </>
          ) : (
            'Checking the key…'
          )}
        </span>
        <BucketMeter compact />
      </div>
      <details>
        <summary>Connection details</summary>
        {ping.data ? (
          <dl className="facts">
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
