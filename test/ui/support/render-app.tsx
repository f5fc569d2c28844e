import { render } from '@testing-library/react';
import { AppProviders } from '../../../src/app/providers';
import { flushSync } from 'react-dom';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { createRoutes } from '../../../src/app/routes';
import { createClient, type SlabdeskClient } from '../../../src/client';
import { createQueryClient } from '../../../src/lib/query-client';
import { hubInFront } from '../../support/hub-in-front';

/**
 * Renders the real app (its routes, providers and layout) at `path`, with a fresh QueryClient
 * (retries off) and a client pointed at a real sandbox over HTTP.
 */
export function renderApp(
  path: string,
  options: { baseUrl: string; token: string; client?: SlabdeskClient },
) {
  // The page's hub: the server in front of the upstream (see hub-in-front); a test pointing the
  // page at a server of its own passes no key.
  if (options.token) hubInFront(options.baseUrl, options.token);
  const client =
    options.client ??
    createClient({
      baseUrl: options.baseUrl,
      apiKey: options.token,
      retry: { unavailableBudgetSeconds: 0, transient: 0 },
    });
  const queryClient = createQueryClient({ retry: false });
  const router = createMemoryRouter(createRoutes({ client, queryClient }), {
    initialEntries: [path],
  });
  const view = render(
    <AppProviders client={client} queryClient={queryClient}>
      <RouterProvider
        router={router}
        flushSync={(draw) => void flushSync(draw)}
        useTransitions={false}
      />
    </AppProviders>,
  );
  return { ...view, router, client, queryClient };
}
