import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useApiClient } from '../api-context';
import { useOffline } from '../offline';
import { useOutboxItems } from './outbox';

/**
 * Sends the outbox on open and whenever the network (or the server) comes back. Only writes
 * waiting or held are ever sent, so the sending code is loaded only when there is one.
 */
export function useOutboxSync(): void {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const offline = useOffline();
  const toSend = useOutboxItems().some((item) => item.state === 'waiting' || item.state === 'held');
  useEffect(() => {
    if (offline || !toSend) return;
    const send = () =>
      void import('./outbox-sync').then(({ syncOutbox }) => syncOutbox(client, queryClient));
    send();
    window.addEventListener('online', send);
    return () => window.removeEventListener('online', send);
  }, [client, queryClient, offline, toSend]);
}
