import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError, type Ping } from '../client';
import { connectionKeys } from '../api/connection-query';
import { keepCopies } from '../api/kept/kept-persister';
import { noteWriteError } from './write-access';
import { noteServerSeen, noteSessionEnded, SIGN_IN_REQUIRED } from './session';

/** A 401 sign_in_required from the dashboard's server: the session ended; every page says so. */
function noteSignInRequired(error: unknown): void {
  if (isApiError(error) && error.code === SIGN_IN_REQUIRED) noteSessionEnded();
}

const PING_HASH = JSON.stringify(connectionKeys.ping());

/** The dashboard's QueryClient: the client already retries what is safe, so queries retry little. */
export function createQueryClient(options: { retry?: boolean } = {}): QueryClient {
  const queryClient: QueryClient = new QueryClient({
    // A write refused because test keys are read-only here makes every page stop offering writes.
    mutationCache: new MutationCache({
      onError: (error) => {
        noteSignInRequired(error);
        noteWriteError(error, queryClient.getQueryData<Ping>(connectionKeys.ping())?.key_id);
      },
    }),
    queryCache: new QueryCache({
      onError: noteSignInRequired,
      // The connection's check answered: the kept data has seen its server (see app/session-end.ts).
      onSuccess: (_data, query) => {
        if (query.queryHash === PING_HASH) noteServerSeen();
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry:
          options.retry === false
            ? false
            : // A request that ran out its deadline already waited long enough: no second one.
              (count, error) =>
                count < 1 &&
                !(isApiError(error) && (error.status > 0 || error.code === 'deadline_exceeded')),
      },
      mutations: { retry: false },
    },
  });
  // The query cache owns the kept collections; their copies in IndexedDB follow it.
  keepCopies(queryClient);
  return queryClient;
}
