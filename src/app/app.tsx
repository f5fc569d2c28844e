import { useState } from 'react';
import { RouterProvider } from 'react-router/dom';
import { createBrowserRouter } from 'react-router';
import { createClient } from '../client';
import { createQueryClient } from '../lib/query-client';
import { AppProviders } from './providers';
import { routes } from './routes';

/** The dashboard in the browser: the client talks to the server's own `/api` proxy, no key. */
export function App() {
  const [client] = useState(() => createClient({ baseUrl: '/api' }));
  const [queryClient] = useState(() => createQueryClient());
  const [router] = useState(() => createBrowserRouter(routes));
  return (
    <AppProviders client={client} queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
