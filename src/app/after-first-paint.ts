import { useEffect, useState } from 'react';
import type { QueryClient } from '@tanstack/react-query';

/** Runs `done` once the browser has an idle moment (at most a second away). */
export const whenIdle = (done: () => void): void => {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(done, { timeout: 1000 });
  else setTimeout(done, 0);
};

/** Runs `done` once no read is in flight and the browser has an idle moment; returns a cancel. */
export function whenReadsSettle(queryClient: QueryClient, done: () => void): () => void {
  let cancelled = false;
  let stop = () => {};
  const quiet = () => {
    if (cancelled) return;
    if (queryClient.isFetching() === 0) {
      whenIdle(() => !cancelled && (queryClient.isFetching() === 0 ? done() : quiet()));
      return;
    }
    stop = queryClient.getQueryCache().subscribe(() => {
      if (queryClient.isFetching() > 0) return;
      stop();
      quiet();
    });
  };
  quiet();
  return () => {
    cancelled = true;
    stop();
  };
}

/** False until the first page is drawn and the browser has had a moment: what waits for it. */
export function useAfterFirstPaint(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => whenIdle(() => setReady(true)), []);
  return ready;
}
