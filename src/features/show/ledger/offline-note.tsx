import { useOffline } from '../../../api/offline';

/** Said plainly when there is no network: what is shown is this device's copy. */
export function OfflineNote() {
  if (!useOffline()) return null;
  return (
    <p className="banner banner-warn offline-note" role="status">
      Offline: no network. Showing what this device holds; changes wait here and are sent when the
      connection is back.
    </p>
  );
}
