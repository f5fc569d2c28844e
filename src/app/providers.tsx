import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { ListingRead, SlabdeskClient } from '../client';
import { ApiClientProvider } from '../api/api-context';
import { ListingActionsProvider } from '../components/listing-actions-slot';
import { lazyPart } from '../components/lazy-part';

/** "Sold here" on a listing's page: its own chunk, loaded with the first listing page. */
const SoldHere = lazyPart(() =>
  import('../features/show/sold-here/sold-here').then((module) => module.SoldHere),
);
const soldHere = (listing: ListingRead) => <SoldHere key={listing.id} listing={listing} />;

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
      <QueryClientProvider client={queryClient}>
        <ListingActionsProvider actions={soldHere}>{children}</ListingActionsProvider>
      </QueryClientProvider>
    </ApiClientProvider>
  );
}
