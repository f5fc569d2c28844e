import { createClient, type SlabdeskClient } from '../client';
import { HubStream } from '../api/live/hub-stream';
import { HubStreamProvider } from '../api/live/live-context';
import { createQueryClient } from '../lib/query-client';
import { sessionHeaders } from '../lib/session';
import type { QueryClient } from '@tanstack/react-query';
import { useAfterFirstPaint } from '../api/first-reads';
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

/** Made before React's first render: the router starts the first page's reads and chunk at once. */
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
  // The live stream after the first paint, not the page's reads: the header says if updates arrive.
  const painted = useAfterFirstPaint();
  return (
    <AppProviders client={parts.client} queryClient={parts.queryClient}>
      <HubStreamProvider stream={parts.stream}>
        {painted && <LiveUpdates />}
        {/* Moves drawn at once: a transition restarted with each page a read answered. */}
        <RouterProvider
          router={parts.router}
          flushSync={(draw) => void flushSync(draw)}
          useTransitions={false}
        />
      </HubStreamProvider>
    </AppProviders>
  );
}
