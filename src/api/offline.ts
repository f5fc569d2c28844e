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

/**
 * No network: the browser says so, or the server cannot be reached at all (a hall's Wi-Fi that
 * is "connected" and carries nothing). Read again whenever the browser's state changes.
 */
export function useOffline(): boolean {
  const client = useApiClient();
  const online = useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  );
  const ping = useQuery({ ...pingQuery(client), retry: false });
  const unreachable = ping.error instanceof ApiError && ping.error.status === 0;
  if (!online) return true;
  return unreachable && !ping.isFetching;
}
