import { render } from '@testing-library/react';
import { AppProviders } from '../../../src/app/providers';
import { BootFrame, createRoutes } from '../../../src/app/routes';
import { RouteError } from '../../../src/app/route-error';
import { memoryHistory } from '../../../src/lib/router/history';
import { createAppRouter } from '../../../src/lib/router/router';
import { AppRouterProvider } from '../../../src/lib/router/router-view';
import { createClient, type SlabdeskClient } from '../../../src/client';
import { createQueryClient } from '../../../src/lib/query-client';

/**
 * Renders the real app (its routes, providers and layout) at `path`, with a fresh QueryClient
 * (retries off) and a client pointed at a real sandbox over HTTP.
 */
export function renderApp(
  path: string,
  options: { baseUrl: string; token: string; client?: SlabdeskClient },
) {
  const client =
    options.client ??
    createClient({
      baseUrl: options.baseUrl,
      apiKey: options.token,
      retry: { unavailableBudgetSeconds: 0, transient: 0 },
    });
  const queryClient = createQueryClient({ retry: false });
  const router = createAppRouter(createRoutes({ client, queryClient }), memoryHistory([path]));
  const view = render(
    <AppProviders client={client} queryClient={queryClient}>
      <AppRouterProvider
        router={router}
        fallback={<BootFrame />}
        error={(error) => <RouteError error={error} />}
      />
    </AppProviders>,
  );
  return { ...view, router, client, queryClient };
}
