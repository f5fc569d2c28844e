import { useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { ApiError } from '../client';
import { useApiClient } from './api-context';
import { pingQuery } from './connection-query';

const subscribe = (listener: () => void) => {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
};

/** No network: the browser says so, or the server cannot be reached at all (a dead hall Wi-Fi). */
export function useOffline(): boolean {
  const client = useApiClient();
  const online = useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  );
  const ping = useQuery(pingQuery(client));
  // The first failed try says it, while the query still retries.
  const reason = ping.failureReason ?? ping.error;
  return !online || (reason instanceof ApiError && reason.status === 0);
}
