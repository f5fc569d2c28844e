import { isRouteErrorResponse, useRouteError } from 'react-router';
import { isApiError } from '../client';
import { errorWords } from '../lib/error-words';
import { ErrorDetails } from '../components/error-details';

/** Shown when a page fails to load (its code or its loader) or to render: in words, then details. */
export function RouteError() {
  const error = useRouteError();
  const api = isApiError(error) ? error : undefined;
  const missing =
    (isRouteErrorResponse(error) && error.status === 404) || api?.code === 'not_found';
  const words = api ? errorWords(api.code) : undefined;
  return (
    <main id="main">
      <h1>{missing ? 'Not found' : 'This page could not be shown'}</h1>
      <p role="alert">
        {words?.what ??
          (missing
            ? 'There is nothing at this address.'
            : 'Something went wrong while the page was loading.')}
      </p>
      <p>
        {words?.next ?? 'Reload the page to try again, or go back to the overview.'}{' '}
        <a href="/">Back to the overview</a>
      </p>
      {api ? (
        <ErrorDetails error={api} />
      ) : (
        !missing && (
          <details>
            <summary>Details</summary>
            <p>{error instanceof Error ? error.message : String(error)}</p>
          </details>
        )
      )}
    </main>
  );
}
