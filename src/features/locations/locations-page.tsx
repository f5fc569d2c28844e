import { useQuery } from '@tanstack/react-query';
import { ErrorBanner } from '../../components/error-banner';
import { Loading } from '../../components/states';
import { useApiClient } from '../../lib/api-context';
import { REQUIRED_SCOPES } from '../../lib/required-scopes';
import { locationsQuery } from './locations-queries';

/** The two locations, read-only, with what each means for the seller. */
export function LocationsPage() {
  const client = useApiClient();
  const query = useQuery(locationsQuery(client));
  return (
    <section aria-labelledby="locations-heading">
      <h1 id="locations-heading">Locations</h1>
      <p className="muted">
        Every seller has exactly two locations, computed by the marketplace. They are read-only: no
        address is published and nothing here can be changed through the API.
      </p>
      {query.isPending && <Loading label="Loading locations…" />}
      {query.isError && (
        <ErrorBanner
          error={query.error}
          title="Locations could not be loaded"
          scope={REQUIRED_SCOPES.inventory}
        />
      )}
      <div className="detail-grid">
        {query.data?.map((location) => (
          <section key={location.id} className="panel" aria-labelledby={`loc-${location.id}`}>
            <h2 id={`loc-${location.id}`}>{location.name}</h2>
            <p>
              {location.svc_location_type === 'vault'
                ? 'The hub: every sold card is shipped here first, authenticated, then sent to the buyer.'
                : 'Your own location: where your cards are while they are listed or waiting to be.'}
            </p>
            <dl className="facts">
              <dt>Id</dt>
              <dd>
                <code>{location.id}</code>
              </dd>
              <dt>Type</dt>
              <dd>{location.svc_location_type === 'vault' ? 'Hub (vault)' : 'Seller'}</dd>
              {location.country_code && (
                <>
                  <dt>Country</dt>
                  <dd>{location.country_code}</dd>
                </>
              )}
              <dt>Active</dt>
              <dd>{location.active ? 'Yes' : 'No'}</dd>
              <dt>Controlled by you</dt>
              <dd>{location.svc_seller_controlled ? 'Yes' : 'No'}</dd>
              <dt>Writable</dt>
              <dd>{location.svc_writable ? 'Yes' : 'No (read-only)'}</dd>
            </dl>
          </section>
        ))}
      </div>
    </section>
  );
}

export { LocationsPage as Component };
