import { createClient, type SlabdeskClient } from '../client';
import { HubStream } from '../api/live/hub-stream';
import { HubStreamProvider } from '../api/live/live-context';
import { createQueryClient } from '../lib/query-client';
import { sessionHeaders } from '../lib/session';
import type { QueryClient } from '@tanstack/react-query';
import { useAfterFirstPaint } from './after-first-paint';
import { AppProviders } from './providers';
import { flushSync } from 'react-dom';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { createRoutes } from './routes';
import { lazyPart } from '../components/lazy-part';

/** The live stream and what applies its deliveries: started after the first paint. */
const LiveUpdates = lazyPart(() => import('./live-updates').then((module) => module.LiveUpdates));

export type AppRouter = ReturnType<typeof createBrowserRouter>;

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
 * call's priority, and each write the session's CSRF token. Made before React's first render:
 * creating the router runs the first page's loader, so its reads and its code chunk start at once.
 */
export function createAppParts(): AppParts {
  const client = createClient({
    baseUrl: '/api',
    pacing: { enabled: false, maxInFlight: 6 },
    sendPriority: true,
    // With a signed-in session, every write carries the session's CSRF token.
    headers: ({ method }) => sessionHeaders(method),
  });
  const queryClient = createQueryClient();
  const router = createBrowserRouter(createRoutes({ client, queryClient }));
  return { client, queryClient, stream: new HubStream(), router };
}

/** The dashboard in the browser. */
export function App({ parts }: { parts: AppParts }) {
  const painted = useAfterFirstPaint();
  return (
    <AppProviders client={parts.client} queryClient={parts.queryClient}>
      <HubStreamProvider stream={parts.stream}>
        {painted && <LiveUpdates />}
        {/* Moves drawn at once, not in transitions: React starts a transition over after each
            redraw outside it, and while a page's reads answer page after page a move waited
            seconds. flushSync: a page's filters are drawn as they are used. */}
        <RouterProvider
          router={parts.router}
          flushSync={(draw) => void flushSync(draw)}
          useTransitions={false}
        />
      </HubStreamProvider>
    </AppProviders>
  );
}
