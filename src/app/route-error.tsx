import { lazy, Suspense, type ReactNode } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { isApiError } from '../client';
import type { ErrorWords } from '../lib/error-words';
import { ErrorDetails } from '../components/error-details';

function Words({ what, next }: ErrorWords) {
  return (
    <>
      <p role="alert">{what}</p>
      <p>
        {next} <a href="/">Back to the overview</a>
      </p>
    </>
  );
}

const TRY_AGAIN = 'Reload the page to try again, or go back to the overview.';
const WENT_WRONG = { what: 'Something went wrong while the page was loading.', next: TRY_AGAIN };

/** An API error's words by its code: their own chunk, loaded only when a page fails with one (unloadable: the plain words). */
const ApiErrorWords = lazy(() =>
  import('./api-error-words').catch(() => ({
    default: ({ children }: { children: (words: ErrorWords) => ReactNode }) => children(WENT_WRONG),
  })),
);

/** Shown when a page fails to load (its code or its loader) or to render: in words, then details. */
export function RouteError() {
  const error = useRouteError();
  const api = isApiError(error) ? error : undefined;
  const missing =
    (isRouteErrorResponse(error) && error.status === 404) || api?.code === 'not_found';
  return (
    <main id="main">
      <h1>{missing ? 'Not found' : 'This page could not be shown'}</h1>
      {api ? (
        <Suspense fallback={null}>
          <ApiErrorWords code={api.code}>{(words) => <Words {...words} />}</ApiErrorWords>
        </Suspense>
      ) : (
        <Words
          {...(missing
            ? { what: 'There is nothing at this address.', next: TRY_AGAIN }
            : WENT_WRONG)}
        />
      )}
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
