import { createContext, useContext, type ReactNode } from 'react';
import type { SlabdeskClient } from '../client';

const ApiClientContext = createContext<SlabdeskClient | null>(null);

/** Gives the tree its API client: the proxy's in the app, a harness-pointed one in tests. */
export function ApiClientProvider({
  client,
  children,
}: {
  client: SlabdeskClient;
  children: ReactNode;
}) {
  return <ApiClientContext.Provider value={client}>{children}</ApiClientContext.Provider>;
}

export function useApiClient(): SlabdeskClient {
  const client = useContext(ApiClientContext);
  if (!client) throw new Error('useApiClient needs an ApiClientProvider');
  return client;
}
