import { useEffect, useReducer } from 'react';

/** A store's snapshot redrawn at most once per `ms` (a meter would paint per request). */
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
