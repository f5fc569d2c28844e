import { useSyncExternalStore } from 'react';

const subscribe = (listener: () => void) => {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
};

/** Whether the browser says it has a network. */
export const useOnline = () =>
  useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  );

/** Said plainly when there is no network: what is shown is this device's copy. */
export function OfflineNote() {
  const online = useOnline();
  if (online) return null;
  return (
    <p className="banner banner-warn offline-note" role="status">
      Offline: no network. Showing what this device holds; changes wait here and are sent when the
      connection is back.
    </p>
  );
}
