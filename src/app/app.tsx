import { createClient, type SlabdeskClient } from '../client';
import { HubStream } from '../lib/live/hub-stream';
import { HubStreamProvider } from '../lib/live/live-context';
import { createQueryClient } from '../lib/query-client';
import { sessionHeaders } from '../lib/session';
import type { QueryClient } from '@tanstack/react-query';
import { LiveUpdates } from './live-updates';
import { AppProviders } from './providers';
import { BootFrame, createRoutes } from './routes';
import { RouteError } from './route-error';
import { browserHistory } from '../lib/router/history';
import { createAppRouter, type AppRouter } from '../lib/router/router';
import { AppRouterProvider } from '../lib/router/router-view';

/** What the dashboard runs on in the browser, made once per page load. */
export interface AppParts {
  client: SlabdeskClient;
  queryClient: QueryClient;
  stream: HubStream;
  router: AppRouter;
}

/**
 * The dashboard's client, caches, live stream and router. The client talks to the server's own
 * `/api` proxy, no key. The server's governor paces every tab of the key by one bucket, so the
 * tab does not pace itself (it only bounds its requests in flight) and tells the server each
 * call's priority, and each write the session's CSRF token. Made before React's first render: creating the router runs the first page's
 * loader, so its reads (and its code chunk) start while React renders the shell.
 */
export function createAppParts(): AppParts {
  const client = createClient({
    baseUrl: '/api',
    pacing: { enabled: false, maxInFlight: 6 },
    sendPriority: true,
    walkStreamPath: '/hub/walk',
    // With a signed-in session, every write carries the session's CSRF token.
    headers: ({ method }) => sessionHeaders(method),
  });
  const queryClient = createQueryClient();
  const router = createAppRouter(createRoutes({ client, queryClient }), browserHistory());
  return { client, queryClient, stream: new HubStream(), router };
}

/** The dashboard in the browser. */
export function App({ parts }: { parts: AppParts }) {
  return (
    <AppProviders client={parts.client} queryClient={parts.queryClient}>
      <HubStreamProvider stream={parts.stream}>
        <LiveUpdates />
        <AppRouterProvider
          router={parts.router}
          fallback={<BootFrame />}
          error={(error) => <RouteError error={error} />}
        />
      </HubStreamProvider>
    </AppProviders>
  );
}
