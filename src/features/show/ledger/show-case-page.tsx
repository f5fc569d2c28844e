import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useApiClient } from '../../../api/api-context';
import { showsQuery, useSetShowCase } from '../../../api/shows/show-queries';
import { ErrorBanner } from '../../../components/error-banner';
import { FormField } from '../../../components/form-field';
import { paths } from '../../../shared/paths';
import { formatDay } from '../../../lib/format';
import { Options } from '../../../components/options';

/** "Bring these to the show": the listings chosen in the catalogue become a show's case. */
export function ShowCasePage() {
  const client = useApiClient();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const ids = (params.get('ids') ?? '').split(',').filter(Boolean).slice(0, 2000);
  const shows = useQuery(showsQuery(client));
  const [showKey, setShowKey] = useState('');
  const chosen = showKey || shows.data?.[0]?.key || '';
  const setCase = useSetShowCase(chosen);
  const current = shows.data?.find((show) => show.key === chosen);

  return (
    <section aria-labelledby="case-heading">
      <h1 id="case-heading">Bring these to the show</h1>
      <p>
        {ids.length === 1 ? '1 listing' : `${ids.length} listings`} chosen in{' '}
        <Link to={paths.listings.to()}>Listings</Link>.
      </p>
      {shows.data && shows.data.length === 0 ? (
        <p>
          No show yet: <Link to={paths.shows.to()}>start one</Link> first.
        </p>
      ) : (
        <form
          className="panel inline-form"
          onSubmit={(event) => {
            event.preventDefault();
            if (!current) return;
            const listingIds = [...new Set([...current.caseListingIds, ...ids])];
            setCase.mutate(listingIds, { onSuccess: () => navigate(paths.show.to(chosen)) });
          }}
        >
          <FormField label="Show">
            {(control) => (
              <select {...control} value={chosen} onChange={(e) => setShowKey(e.target.value)}>
                <Options
                  of={(shows.data ?? []).map((show) => [
                    show.key,
                    `${show.name} (${formatDay(show.date)})`,
                  ])}
                />
              </select>
            )}
          </FormField>
          <button
            type="submit"
            className="primary"
            disabled={ids.length === 0 || !current || setCase.isPending}
          >
            Add to the show’s case
          </button>
        </form>
      )}
      {setCase.error && <ErrorBanner error={setCase.error} title="The case was not saved" />}
    </section>
  );
}

export { ShowCasePage as Component };
