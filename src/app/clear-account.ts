import { deleteBrowserDb } from '../api/browser-db';
import { JOB_DB, KEPT_DB, OUTBOX_DB, SHELL_CACHE_PREFIX } from '../shared/browser-keeps';

/** The browser databases that hold the account's data (kept copies, the outbox, bulk jobs). */
const DATABASES = [KEPT_DB, OUTBOX_DB, JOB_DB];

/** This browser's Web Push subscription ended (the server drops its copy as the session ends). */
async function unsubscribePush(): Promise<void> {
  const registration = await navigator.serviceWorker?.getRegistration();
  const subscription = await registration?.pushManager?.getSubscription();
  await subscription?.unsubscribe();
}

/** Before sign-out: the account's databases, kept pages, storage and push go (best effort). */
export async function clearAccountData(): Promise<void> {
  const work = (async () => {
    try {
      localStorage.clear();
      sessionStorage.clear();
    } catch {
      // Storage refused: nothing kept there either.
    }
    navigator.serviceWorker?.controller?.postMessage({ type: 'sign-out' });
    const caching =
      typeof caches === 'undefined'
        ? []
        : (await caches.keys())
            .filter((name) => !name.startsWith(SHELL_CACHE_PREFIX))
            .map((name) => caches.delete(name));
    await Promise.all([
      ...caching,
      ...DATABASES.map((name) => deleteBrowserDb(indexedDB, name)),
      unsubscribePush().catch(() => undefined),
    ]);
  })().catch(() => undefined);
  await Promise.race([work, new Promise((resolve) => setTimeout(resolve, 1_500))]);
}
