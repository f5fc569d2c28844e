import { useEffect, useState } from 'react';
import { useApiClient } from '../../../api/api-context';
import {
  applicationServerKey,
  dropPushSubscription,
  fetchPushKey,
  savePushSubscription,
} from '../../../api/push/push-api';
import { ErrorBanner } from '../../../components/error-banner';

type Support = 'checking' | 'no-push' | 'no-worker' | 'ready';

/** Whether this browser can be told when the app is closed: Web Push through our worker. */
async function pushRegistration(): Promise<
  | { support: Exclude<Support, 'ready' | 'checking'> }
  | { support: 'ready'; registration: ServiceWorkerRegistration }
> {
  if (
    !('serviceWorker' in navigator) ||
    !('PushManager' in window) ||
    !('Notification' in window)
  ) {
    return { support: 'no-push' };
  }
  const registration = await navigator.serviceWorker.getRegistration();
  if (!registration?.pushManager) return { support: 'no-worker' };
  return { support: 'ready', registration };
}

const UNSUPPORTED: Record<Exclude<Support, 'ready' | 'checking'>, string> = {
  'no-push':
    'This browser cannot be told of sales while Slabdesk is closed. On an iPhone, add Slabdesk to the Home Screen first, then open it from there.',
  'no-worker':
    'This page cannot be told of sales while it is closed: its offline files are not installed. Reload it once with a network.',
};

/** Push when a case slab sells online: permission asked only on the seller's press, or why not. */
export function PushSetting() {
  const client = useApiClient();
  const [support, setSupport] = useState<Support>('checking');
  const [registration, setRegistration] = useState<ServiceWorkerRegistration>();
  const [on, setOn] = useState(false);
  const [busy, setBusy] = useState(false);
  const [blocked, setBlocked] = useState(false);
  const [error, setError] = useState<unknown>();

  useEffect(() => {
    let live = true;
    void pushRegistration().then(async (found) => {
      if (!live) return;
      setSupport(found.support);
      if (found.support !== 'ready') return;
      setRegistration(found.registration);
      setBlocked(Notification.permission === 'denied');
      const subscription = await found.registration.pushManager.getSubscription();
      if (live) setOn(subscription !== null);
    });
    return () => {
      live = false;
    };
  }, []);

  async function change(wanted: boolean) {
    if (!registration) return;
    setBusy(true);
    setError(undefined);
    try {
      if (wanted) {
        const permission = await Notification.requestPermission();
        if (permission !== 'granted') {
          setBlocked(permission === 'denied');
          return;
        }
        const key = await fetchPushKey(client);
        const subscription = await registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: applicationServerKey(key),
        });
        await savePushSubscription(client, subscription.toJSON());
        setOn(true);
      } else {
        const subscription = await registration.pushManager.getSubscription();
        if (subscription) {
          await dropPushSubscription(client, subscription.endpoint);
          await subscription.unsubscribe();
        }
        setOn(false);
      }
    } catch (failure) {
      // The browser's own refusals (its push service unreachable, the key refused) in words.
      setError(
        failure instanceof DOMException
          ? new Error(
              'This browser’s push service did not answer, so this phone cannot be told while Slabdesk is closed. Try again with a network.',
            )
          : failure,
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="panel"
      aria-labelledby="push-heading"
      onSubmit={(event) => event.preventDefault()}
    >
      <h2 id="push-heading">When the app is closed</h2>
      {support === 'checking' ? null : support !== 'ready' ? (
        <p className="push-setting-state">{UNSUPPORTED[support]}</p>
      ) : (
        <>
          <label className="hit-area push-setting-check">
            <input
              type="checkbox"
              checked={on}
              disabled={busy || (blocked && !on)}
              onChange={(event) => void change(event.target.checked)}
            />
            Tell this phone when a case slab sells online
          </label>
          {blocked && !on ? (
            <p className="push-setting-state">
              Notifications are blocked for Slabdesk in this browser. Allow them in the browser’s
              site settings, then come back here.
            </p>
          ) : (
            <p className="push-setting-state">
              {on
                ? 'This phone is told at once, even with Slabdesk closed.'
                : 'Off: this phone hears of an online sale only while Slabdesk is open.'}
            </p>
          )}
        </>
      )}
      {error !== undefined && (
        <ErrorBanner error={error} title="This phone could not be set to be told" />
      )}
    </form>
  );
}
