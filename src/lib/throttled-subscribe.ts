/** A store's `subscribe`, as useSyncExternalStore takes it. */
export type Subscribe = (listener: () => void) => () => void;

/**
 * The same subscription, telling its listener at most once every `ms` (after the first change of
 * a burst, so the last change always shows). A meter read by a person needs no more than a few
 * updates a second; one re-render per request of a 50-page walk costs the page its speed.
 */
export function throttledSubscribe(subscribe: Subscribe, ms: number): Subscribe {
  return (listener) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unsubscribe = subscribe(() => {
      timer ??= setTimeout(() => {
        timer = undefined;
        listener();
      }, ms);
    });
    return () => {
      if (timer !== undefined) clearTimeout(timer);
      unsubscribe();
    };
  };
}
