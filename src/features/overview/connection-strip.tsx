import { useQuery } from '@tanstack/react-query';
import { BucketMeter } from '../../components/bucket-meter';
import { QueryErrorBanner } from '../../components/error-banner';
import { useApiClient } from '../../api/api-context';
import { pingQuery } from '../../api/connection-query';
import { formatDateTime } from '../../lib/format';
import { fieldOf, RecordField } from '../../components/record-field';

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
            <RecordField label="Mode" {...fieldOf(ping.data, 'mode')}>
              {(mode) =>
                mode === 'test'
                  ? 'Test: test records only; buyers see nothing'
                  : 'Live: real listings and orders'
              }
            </RecordField>
            <RecordField label="Seller" {...fieldOf(ping.data, 'seller_id')}>
              {(id) => <code>{id}</code>}
            </RecordField>
            <RecordField label="Key id" {...fieldOf(ping.data, 'key_id')}>
              {(id) => <code>{id}</code>}
            </RecordField>
            <RecordField label="API version" {...fieldOf(ping.data, 'api_version')}>
              {String}
            </RecordField>
            <RecordField label="Scopes" {...fieldOf(ping.data, 'scopes')}>
              {(scopes) => scopes.join(', ')}
            </RecordField>
            <RecordField label="Server time" {...fieldOf(ping.data, 'server_time')}>
              {formatDateTime}
            </RecordField>
          </dl>
        ) : (
          <p className="muted">Waiting for the API's answer to /ping.</p>
        )}
        <BucketMeter />
      </details>
    </section>
  );
}
