import type { UseQueryResult } from '@tanstack/react-query';
import { useMemo } from 'react';
import { ErrorBanner, QueryErrorBanner } from '../../../components/error-banner';
import { LoadProgressBar } from '../../../components/states';
import { RateLimitWaitNote } from '../../../components/rate-limit-wait-note';
import { SetAsideNotice } from '../../../components/set-aside-notice';
import { REQUIRED_SCOPES } from '../../../api/required-scopes';
import type { Catalogue, CatalogueAvailability } from '../../../api/listings/catalogue-query';
import type { CatalogueRow } from './catalogue-row';
import { countOf } from '../../../lib/format';
import { noteSellerAsked } from '../../../api/kept/seller-asked';

/** Where the catalogue walk stands: its error, its progress, and the records it could not read. */
export function CatalogueLoadState({
  query,
  availability,
  rows = [],
  shown,
}: {
  query: UseQueryResult<Catalogue>;
  /** The inventory-level join, when the list view does not say why listings are unavailable. */
  availability?: UseQueryResult<CatalogueAvailability> | undefined;
  rows?: readonly CatalogueRow[];
  /** The catalogue as drawn now (a deferred value lags): the bar stays until the rows are whole. */
  shown?: Catalogue | undefined;
}) {
  const data = query.data;
  const partial = useMemo(() => rows.filter((row) => row.unreadable.length > 0), [rows]);
  return (
    <>
      <QueryErrorBanner
        query={query}
        title="The catalogue could not be loaded"
        scope={REQUIRED_SCOPES.listings}
      />
      {data?.failure && (
        <ErrorBanner
          error={data.failure.error}
          title={
            data.complete
              ? 'The catalogue could not be brought up to date'
              : 'The catalogue stopped loading before its end'
          }
          scope={REQUIRED_SCOPES.listings}
          onRetry={() => {
            noteSellerAsked();
            void query.refetch();
          }}
        />
      )}
      {/* One bar floating over the page through the whole read, so the filters never move. */}
      {(data
        ? (!data.complete || shown?.complete === false) && !data.failure
        : query.isPending) && (
        <LoadProgressBar
          floating
          label="Loading the catalogue"
          value={data?.rows.length}
          detail={
            data
              ? `${data.rows.length} listings so far (page ${data.pages})`
              : 'Reading the first page…'
          }
        />
      )}
      {query.isFetching && <RateLimitWaitNote />}
      {data && <SetAsideNotice records={data.setAside} noun="listing" />}
      {partial.length > 0 && (
        <p className="banner banner-warn" role="status">
          {countOf(partial.length, 'listing')} have fields that could not be read (shown as such):{' '}
          {partial
            .slice(0, 50)
            .map((row) => `${row.id} (${row.unreadable.join(', ')})`)
            .join('; ')}
          {partial.length > 50 && ` and ${partial.length - 50} more`}
        </p>
      )}
      {availability?.isError && (
        <ErrorBanner
          error={availability.error}
          title="Why some listings are unavailable (sold or deactivated) could not be read"
          scope={REQUIRED_SCOPES.inventory}
          onRetry={() => void availability.refetch()}
        />
      )}
      {availability?.isFetching && !availability.data && (
        <p className="muted" role="status">
          Reading your cards' availability to tell sold listings from deactivated ones…
        </p>
      )}
    </>
  );
}
