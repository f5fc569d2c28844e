import type { UseQueryResult } from '@tanstack/react-query';
import { ErrorBanner } from '../../components/error-banner';
import { LoadProgressBar, Loading } from '../../components/states';
import { REQUIRED_SCOPES } from '../../lib/connection-query';
import type { Catalogue } from './catalogue-query';

/**
 * Where the catalogue walk stands, for every page built on it: the error with its code and
 * request id, the progress while pages arrive, and the records that could not be read, by id.
 */
export function CatalogueLoadState({ query }: { query: UseQueryResult<Catalogue> }) {
  const data = query.data;
  return (
    <>
      {query.isError && (
        <ErrorBanner
          error={query.error}
          title="The catalogue could not be loaded"
          scope={REQUIRED_SCOPES.listings}
          onRetry={() => void query.refetch()}
        />
      )}
      {data && !data.complete && (
        <LoadProgressBar
          label="Loading the catalogue"
          value={data.rows.length}
          detail={`${data.rows.length} listings so far (page ${data.pages})`}
        />
      )}
      {!data && query.isPending && <Loading label="Loading the catalogue…" />}
      {data?.setAside.length ? (
        <p className="banner banner-warn" role="status">
          {data.setAside.length} listing(s) could not be read and are left out:{' '}
          {data.setAside.map((record) => record.id ?? '?').join(', ')}
        </p>
      ) : null}
    </>
  );
}
