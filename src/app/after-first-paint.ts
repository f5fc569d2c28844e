import { useEffect, useState } from 'react';

/** Runs `done` once the browser has an idle moment (at most a second away). */
export const whenIdle = (done: () => void): void => {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(done, { timeout: 1000 });
  else setTimeout(done, 0);
};

/** False until the first page is drawn and the browser has had a moment: what waits for it. */
export function useAfterFirstPaint(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => whenIdle(() => setReady(true)), []);
  return ready;
}
