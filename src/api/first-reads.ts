import { useEffect, useState } from 'react';
import type { QueryClient } from '@tanstack/react-query';

/** Runs `done` once the browser has an idle moment (at most a second away). */
export const whenIdle = (done: () => void): void => {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(done, { timeout: 1000 });
  else setTimeout(done, 0);
};

/** The longest the parts after the first reads wait: a page reading for long still gets them. */
const READS_WAIT_MAX_MS = 10_000;

/** Runs `done` once no read is in flight and the browser has an idle moment; returns a cancel. */
export function whenReadsSettle(
  queryClient: QueryClient,
  done: () => void,
  atMostMs = Infinity,
): () => void {
  let cancelled = false;
  let stop = () => {};
  const finish = () => {
    if (cancelled) return;
    cancelled = true;
    stop();
    clearTimeout(timer);
    done();
  };
  const timer = Number.isFinite(atMostMs) ? setTimeout(finish, atMostMs) : undefined;
  const quiet = () => {
    if (cancelled) return;
    if (queryClient.isFetching() === 0) {
      whenIdle(() => (queryClient.isFetching() === 0 ? finish() : quiet()));
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
    clearTimeout(timer);
  };
}

/** False until the page is drawn and its first reads are in (at most 10 s): what waits for them. */
export function useAfterFirstReads(queryClient: QueryClient): boolean {
  const [ready, setReady] = useState(false);
  useEffect(
    () => whenReadsSettle(queryClient, () => setReady(true), READS_WAIT_MAX_MS),
    [queryClient],
  );
  return ready;
}

/** False until the first page is drawn and the browser has had a moment. */
export function useAfterFirstPaint(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => whenIdle(() => setReady(true)), []);
  return ready;
}
