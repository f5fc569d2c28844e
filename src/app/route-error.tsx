import { useRouteError } from 'react-router';

/** Shown when a page fails to load (its code or its loader) or to render. */
export function RouteError() {
  const error = useRouteError();
  const message = error instanceof Error ? error.message : String(error);
  return (
    <main id="main">
      <h1>This page failed</h1>
      <p role="alert">{message}</p>
      <p>
        <a href="/">Back to the overview</a>
      </p>
    </main>
  );
}
