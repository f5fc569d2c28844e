import { useQuery } from '@tanstack/react-query';
import { ErrorBanner } from '../../components/error-banner';
import { FieldValue } from '../../components/field-value';
import { Loading } from '../../components/states';
import { useApiClient } from '../../api/api-context';
import { REQUIRED_SCOPES } from '../../api/required-scopes';
import { locationsQuery } from '../../api/locations/locations-queries';

/** A location's yes-or-no facts: the term, the field, and the words for yes and for no. */
const SWITCHES = [
  ['In use', 'active', 'Yes', 'No: the marketplace has switched it off'],
  ['Who manages it', 'svc_seller_controlled', 'You', 'The marketplace'],
  [
    'Can you change it?',
    'svc_writable',
    'Yes',
    'No: the marketplace manages it and works it out from where your cards are',
  ],
] as const;

/** The two locations, read-only, with what each means for the seller. */
export function LocationsPage() {
  const client = useApiClient();
  const query = useQuery(locationsQuery(client));
  return (
    <section aria-labelledby="locations-heading">
      <h1 id="locations-heading">Locations</h1>
      <p className="muted">
        Every seller has two places for cards: your own, and the marketplace’s hub where sold cards
        are checked. The marketplace manages both; you cannot edit them here, and no address is
        shown.
      </p>
      {query.isPending && <Loading label="Loading locations…" />}
      <ErrorBanner
        error={query.error}
        title="Locations could not be loaded"
        scope={REQUIRED_SCOPES.inventory}
      />
      <div className="detail-grid">
        {query.data?.map((location) => {
          const unreadable = (field: string) => location.unreadable?.includes(field) ?? false;
          return (
            <section key={location.id} className="panel" aria-labelledby={`loc-${location.id}`}>
              <h2 id={`loc-${location.id}`}>
                {location.name ??
                  (location.svc_location_type === 'vault' ? 'The hub' : 'Your location')}
              </h2>
              {location.svc_location_type && (
                <p>
                  {location.svc_location_type === 'vault'
                    ? 'The hub: every sold card is shipped here first, authenticated, then sent to the buyer.'
                    : 'Your own location: where your cards are while they are listed or waiting to be.'}
                </p>
              )}
              <dl className="facts">
                <FieldValue label="Name" value={location.name} unreadable={unreadable('name')}>
                  {(name) => name}
                </FieldValue>
                <FieldValue
                  label="Kind"
                  value={location.svc_location_type}
                  unreadable={unreadable('svc_location_type')}
                >
                  {(type) =>
                    type === 'vault' ? 'The marketplace’s hub' : 'Yours (where your cards are)'
                  }
                </FieldValue>
                {(location.country_code !== undefined || unreadable('country_code')) && (
                  <FieldValue label="Country" value={location.country_code} unreadable>
                    {(code) => code}
                  </FieldValue>
                )}
                {SWITCHES.map(([label, field, yes, no]) => (
                  <FieldValue
                    key={field}
                    label={label}
                    value={location[field]}
                    unreadable={unreadable(field)}
                  >
                    {(on) => (on ? yes : no)}
                  </FieldValue>
                ))}
              </dl>
              <details>
                <summary>Details</summary>
                <p>
                  Location id <code>{location.id}</code>
                </p>
              </details>
            </section>
          );
        })}
      </div>
    </section>
  );
}

export { LocationsPage as Component };
