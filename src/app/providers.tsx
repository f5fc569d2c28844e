import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { SlabdeskClient } from '../client';
import { ApiClientProvider } from '../api/api-context';

/** Everything a page needs around it: the API client and the QueryClient. */
export function AppProviders({
  client,
  queryClient,
  children,
}: {
  client: SlabdeskClient;
  queryClient: QueryClient;
  children: ReactNode;
}) {
  return (
    <ApiClientProvider client={client}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </ApiClientProvider>
  );
}
