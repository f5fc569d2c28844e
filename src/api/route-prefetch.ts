import type { QueryClient } from '@tanstack/react-query';
import type { Params } from 'react-router';
import type { SlabdeskClient } from '../client';

/** What a route's loader needs to start its page's queries. */
export interface RouteDeps {
  client: SlabdeskClient;
  queryClient: QueryClient;
}

/** The address a route's loader runs for: its parameters and the whole URL. */
export interface LoaderArgs {
  params: Params;
  url: URL;
}

/** Starts a page's queries beside its code chunk; the page's `useQuery` joins them. */
export type Prefetch = (deps: RouteDeps, args: LoaderArgs) => void;
