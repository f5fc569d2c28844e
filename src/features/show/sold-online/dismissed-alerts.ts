import { useCallback, useSyncExternalStore } from 'react';
import { localStore } from '../../../api/local-store';
import { Listeners } from '../../../client/listeners';

/** Dismissed sold-online alerts by listing id (a slab sells once): a reload won't re-show them. */
const KEY = 'slabdesk.soldOnline.dismissed';
/** The newest dismissals kept: far more than a show's case sells online in a weekend. */
const KEPT = 500;

const listeners = new Listeners();
let cachedText: string | null | undefined;
let cached: ReadonlySet<string> = new Set();

function read(): ReadonlySet<string> {
  const text = localStore()?.getItem(KEY) ?? null;
  if (text === cachedText) return cached;
  cachedText = text;
  try {
    const parsed: unknown = text ? JSON.parse(text) : [];
    cached = new Set(Array.isArray(parsed) ? parsed.filter((id) => typeof id === 'string') : []);
  } catch {
    cached = new Set();
  }
  return cached;
}

function subscribe(listener: () => void): () => void {
  const unsubscribe = listeners.subscribe(listener);
  // Another tab's dismissal.
  const onStorage = (event: StorageEvent) => {
    if (event.key === KEY || event.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    unsubscribe();
    window.removeEventListener('storage', onStorage);
  };
}

/** The dismissed listings, and the way to dismiss one. */
export function useDismissedAlerts(): [ReadonlySet<string>, (listingId: string) => void] {
  const dismissed = useSyncExternalStore(subscribe, read);
  const dismiss = useCallback((listingId: string) => {
    const ids = [...read()].filter((id) => id !== listingId);
    ids.push(listingId);
    try {
      localStore()?.setItem(KEY, JSON.stringify(ids.slice(-KEPT)));
    } catch {
      // Storage refused: hidden in this tab until it reloads.
      cached = new Set([...cached, listingId]);
    }
    listeners.tell();
  }, []);
  return [dismissed, dismiss];
}
