import { useQuery } from '@tanstack/react-query';
import { BucketMeter } from '../../components/bucket-meter';
import { QueryErrorBanner } from '../../components/error-banner';
import { useApiClient } from '../../api/api-context';
import { pingQuery } from '../../api/connection-query';
import { formatDateTime } from '../../lib/format';
import { RecordField } from '../../components/record-field';
import { Fact } from '../../components/fact';

/** The connection's details, folded: the frame already shows the rest. */
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
            <Fact label="Mode">
              <RecordField record={ping.data} path="mode" value={ping.data.mode}>
                {(mode) =>
                  mode === 'test'
                    ? 'Test: test records only; buyers see nothing'
                    : 'Live: real listings and orders'
                }
              </RecordField>
            </Fact>
            <Fact label="Seller">
              <RecordField record={ping.data} path="seller_id" value={ping.data.seller_id}>
                {(id) => <code>{id}</code>}
              </RecordField>
            </Fact>
            <Fact label="Key id">
              <RecordField record={ping.data} path="key_id" value={ping.data.key_id}>
                {(id) => <code>{id}</code>}
              </RecordField>
            </Fact>
            <Fact label="API version">
              <RecordField record={ping.data} path="api_version" value={ping.data.api_version}>
                {String}
              </RecordField>
            </Fact>
            <Fact label="Scopes">
              <RecordField record={ping.data} path="scopes" value={ping.data.scopes}>
                {(scopes) => scopes.join(', ')}
              </RecordField>
            </Fact>
            <Fact label="Server time">
              <RecordField record={ping.data} path="server_time" value={ping.data.server_time}>
                {formatDateTime}
              </RecordField>
            </Fact>
          </dl>
        ) : (
          <p className="muted">Waiting for the API's answer to /ping.</p>
        )}
        <BucketMeter />
      </details>
    </section>
  );
}
