import { useEffect, useState, type ComponentType } from 'react';

/**
 * A part of the frame in its own chunk (alerts, the live stream, the scanner…), drawn once it has
 * loaded. React's `lazy` keeps a failed load and throws it into the page, which would take the
 * whole dashboard down when a phone at a show loses its network before the part arrived; here a
 * failed load draws nothing and is tried again when the browser is back online.
 */
export function lazyPart<P extends object>(
  load: () => Promise<ComponentType<P>>,
): ComponentType<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const get = () =>
    (loading ??= load().then(
      (part) => (loaded = part),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  return function LazyPart(props: P) {
    const [Part, setPart] = useState(() => loaded);
    useEffect(() => {
      if (Part) return;
      let live = true;
      const attempt = () =>
        void get().then(
          (part) => live && setPart(() => part),
          () => undefined, // offline: the `online` listener tries again
        );
      attempt();
      window.addEventListener('online', attempt);
      return () => {
        live = false;
        window.removeEventListener('online', attempt);
      };
    }, [Part]);
    return Part ? <Part {...props} /> : null;
  };
}
