import { useState } from 'react';
import { RouterProvider } from 'react-router/dom';
import { createBrowserRouter } from 'react-router';
import { createClient } from '../client';
import { HubStream } from '../lib/live/hub-stream';
import { HubStreamProvider } from '../lib/live/live-context';
import { createQueryClient } from '../lib/query-client';
import { LiveUpdates } from './live-updates';
import { AppProviders } from './providers';
import { createRoutes } from './routes';

/**
 * The dashboard in the browser: the client talks to the server's own `/api` proxy, no key. The
 * server's governor paces every tab of the key by one bucket, so the tab does not pace itself
 * (it only bounds its requests in flight) and tells the server each call's priority.
 */
export function App() {
  const [client] = useState(() =>
    createClient({
      baseUrl: '/api',
      pacing: { enabled: false, maxInFlight: 6 },
      sendPriority: true,
    }),
  );
  const [stream] = useState(() => new HubStream());
  const [queryClient] = useState(() => createQueryClient());
  const [router] = useState(() => createBrowserRouter(createRoutes({ client, queryClient })));
  return (
    <AppProviders client={client} queryClient={queryClient}>
      <HubStreamProvider stream={stream}>
        <LiveUpdates />
        <RouterProvider router={router} />
      </HubStreamProvider>
    </AppProviders>
  );
}
