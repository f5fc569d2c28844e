import { useEffect, useState, type ComponentType } from 'react';

/** A part in its own chunk; unlike `lazy`, a failed load draws nothing and retries once online. */
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
