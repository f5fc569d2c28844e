import { useQuery } from '@tanstack/react-query';
import { ErrorBanner } from '../../components/error-banner';
import { FieldValue } from '../../components/field-value';
import { Loading } from '../../components/states';
import { useApiClient } from '../../api/api-context';
import { REQUIRED_SCOPES } from '../../api/required-scopes';
import { locationsQuery } from '../../api/locations/locations-queries';

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
        {query.data?.map((location) => {
          const unreadable = (field: string) => location.unreadable?.includes(field) ?? false;
          const yesNo = (field: 'active' | 'svc_seller_controlled', value: boolean | undefined) => (
            <FieldValue value={value} unreadable={unreadable(field)}>
              {(v) => (v ? 'Yes' : 'No')}
            </FieldValue>
          );
          return (
            <section key={location.id} className="panel" aria-labelledby={`loc-${location.id}`}>
              <h2 id={`loc-${location.id}`}>{location.name ?? location.id}</h2>
              {location.svc_location_type && (
                <p>
                  {location.svc_location_type === 'vault'
                    ? 'The hub: every sold card is shipped here first, authenticated, then sent to the buyer.'
                    : 'Your own location: where your cards are while they are listed or waiting to be.'}
                </p>
              )}
              <dl className="facts">
                <dt>Id</dt>
                <dd>
                  <code>{location.id}</code>
                </dd>
                <dt>Name</dt>
                <dd>
                  <FieldValue value={location.name} unreadable={unreadable('name')}>
                    {(name) => name}
                  </FieldValue>
                </dd>
                <dt>Type</dt>
                <dd>
                  <FieldValue
                    value={location.svc_location_type}
                    unreadable={unreadable('svc_location_type')}
                  >
                    {(type) => (type === 'vault' ? 'Hub (vault)' : 'Seller')}
                  </FieldValue>
                </dd>
                {(location.country_code !== undefined || unreadable('country_code')) && (
                  <>
                    <dt>Country</dt>
                    <dd>
                      <FieldValue value={location.country_code} unreadable>
                        {(code) => code}
                      </FieldValue>
                    </dd>
                  </>
                )}
                <dt>Active</dt>
                <dd>{yesNo('active', location.active)}</dd>
                <dt>Controlled by you</dt>
                <dd>{yesNo('svc_seller_controlled', location.svc_seller_controlled)}</dd>
                <dt>Writable</dt>
                <dd>
                  <FieldValue value={location.svc_writable} unreadable={unreadable('svc_writable')}>
                    {(v) => (v ? 'Yes' : 'No (read-only)')}
                  </FieldValue>
                </dd>
              </dl>
            </section>
          );
        })}
      </div>
    </section>
  );
}

export { LocationsPage as Component };
