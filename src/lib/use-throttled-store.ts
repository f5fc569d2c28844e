import { useEffect, useReducer } from 'react';

/**
 * An external store's current snapshot that redraws at most once per `ms`, however often the
 * store changes: a meter fed by every request would otherwise redraw (and the browser paint a
 * frame) two or three times per request, on a 54-request page load over a hundred times.
 */
export function useThrottledStore<T>(
  subscribe: (listener: () => void) => () => void,
  getSnapshot: () => T,
  ms: number,
): T {
  const [, redraw] = useReducer((count: number) => count + 1, 0);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unsubscribe = subscribe(() => {
      timer ??= setTimeout(() => {
        timer = undefined;
        redraw();
      }, ms);
    });
    return () => {
      unsubscribe();
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [subscribe, ms]);
  return getSnapshot();
}
