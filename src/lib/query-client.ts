import { QueryClient } from '@tanstack/react-query';
import { isApiError } from '../client';

/** The dashboard's QueryClient: the client already retries what is safe, so queries retry little. */
export function createQueryClient(options: { retry?: boolean } = {}): QueryClient {
  return new QueryClient({
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
}
