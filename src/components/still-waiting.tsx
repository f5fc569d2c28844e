import { QueryClientContext } from '@tanstack/react-query';
import { useContext, useState } from 'react';
import { useNow } from '../lib/use-now';

/** After this long without an answer a page says so and offers to try again. */
export const STILL_WAITING_AFTER_MS = 8_000;

/** A page's wait: past `STILL_WAITING_AFTER_MS`, how long and a "Try again". */
export function WaitingStatus({ label }: { label: string }) {
  const [since, setSince] = useState(() => Date.now());
  const now = useNow(1000);
  const queryClient = useContext(QueryClientContext);
  const waited = now - since;
  if (waited < STILL_WAITING_AFTER_MS) {
    return (
      <p className="state state-loading" role="status">
        {label}
      </p>
    );
  }
  const retry = () => {
    setSince(Date.now());
    if (!queryClient) return;
    // A pending query without data is not restarted by a refetch alone: cancel it first.
    const stuck = queryClient
      .getQueryCache()
      .findAll({ type: 'active', predicate: (query) => query.state.fetchStatus === 'fetching' });
    void queryClient
      .cancelQueries({ predicate: (query) => stuck.includes(query) })
      .then(() => queryClient.refetchQueries({ predicate: (query) => stuck.includes(query) }));
  };
  return (
    <div className="state state-loading state-slow" role="status">
      <p>
        {label} Still waiting for the API ({Math.round(waited / 1000)} s). It may be slow or busy;
        the request gives up by itself if no answer comes.
      </p>
      {queryClient && (
        <button type="button" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}
