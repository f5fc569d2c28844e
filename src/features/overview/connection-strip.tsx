import { useQuery } from '@tanstack/react-query';
import { BucketMeter } from '../../components/bucket-meter';
import { QueryErrorBanner } from '../../components/error-banner';
import { ModeBadge } from '../../components/mode-badge';
import { RecordField } from '../../components/record-field';
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
            <RecordField
              record={ping.data}
              path="mode"
              value={ping.data.mode}
              notShown="Mode not shown by the API"
            >
              {(mode) => (
                <>
                  <ModeBadge mode={mode} />{' '}
                  {mode === 'test'
                    ? 'test records only; buyers see nothing'
                    : 'real listings and orders'}
                </>
              )}
            </RecordField>
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
              <RecordField record={ping.data} path="seller_id" value={ping.data.seller_id}>
                {(id) => <code>{id}</code>}
              </RecordField>
            </dd>
            <dt>Key id</dt>
            <dd>
              <RecordField record={ping.data} path="key_id" value={ping.data.key_id}>
                {(id) => <code>{id}</code>}
              </RecordField>
            </dd>
            <dt>API version</dt>
            <dd>
              <RecordField record={ping.data} path="api_version" value={ping.data.api_version}>
                {String}
              </RecordField>
            </dd>
            <dt>Scopes</dt>
            <dd>
              <RecordField record={ping.data} path="scopes" value={ping.data.scopes}>
                {(scopes) => scopes.join(', ')}
              </RecordField>
            </dd>
            <dt>Server time</dt>
            <dd>
              <RecordField record={ping.data} path="server_time" value={ping.data.server_time}>
                {formatDateTime}
              </RecordField>
            </dd>
          </dl>
        ) : (
          <p className="muted">Waiting for the API's answer to /ping.</p>
        )}
        <BucketMeter />
      </details>
    </section>
  );
}
