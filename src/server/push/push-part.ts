import webPush from 'web-push';
import type { ServerHub } from '../hub/server-hub';
import { guarded } from '../hub/background-error';
import { serverLog } from '../log';
import type { Replica } from '../replica/replica';
import type { ShowStore } from '../shows/show-store';
import type { SessionsEndedListener } from '../auth/accounts-store';
import { PushStore, type PushSubscriptionRecord } from './push-store';
import { SoldOnlineWatch, type PushMessage } from './sold-online-watch';

/** How the hub tells the table of a case slab sold online (AppServerOptions.push). */
export interface PushOptions {
  /** `SLABDESK_VAPID_PUBLIC_KEY` / `_PRIVATE_KEY` / `_SUBJECT`; unset: a pair made once, kept. */
  vapid?: { publicKey?: string; privateKey?: string; subject?: string };
  /** Loopback push services accepted: the tests' own push service only, never a setting. */
  allowLoopbackEndpoints?: boolean;
}

/** The hub's VAPID identity: its P-256 pair (public: base64url) and an https: or mailto: contact. */
type VapidKeys = Record<'publicKey' | 'privateKey' | 'subject', string>;

/** Where no subject is set and the public address is not https (push services want a contact). */
const DEFAULT_SUBJECT = 'mailto:push@slabdesk.invalid';
/** A sale at the table is news for a day: a phone off longer than that is told nothing stale. */
const PUSH_TTL_SECONDS = 24 * 60 * 60;
/** A push service that has not answered in this long is given up on for this push. */
const SEND_TIMEOUT_MS = 10_000;

/** The keys from the settings, else a pair made once and kept (a subscription holds the public one). */
export function vapidKeysFor(
  store: PushStore,
  given: Partial<VapidKeys> & { publicUrl?: string },
): VapidKeys {
  const subject =
    given.subject ?? (given.publicUrl?.startsWith('https:') ? given.publicUrl : DEFAULT_SUBJECT);
  if (given.publicKey && given.privateKey) {
    return { publicKey: given.publicKey, privateKey: given.privateKey, subject };
  }
  const [publicKey, privateKey] = [store.meta('vapid_public_key'), store.meta('vapid_private_key')];
  if (publicKey && privateKey) return { publicKey, privateKey, subject };
  const made = webPush.generateVAPIDKeys();
  store.setMeta('vapid_public_key', made.publicKey);
  store.setMeta('vapid_private_key', made.privateKey);
  return { ...made, subject };
}

/** One push, encrypted and signed by `web-push` (aes128gcm, VAPID), posted by `fetch`. */
async function sendOne(
  store: PushStore,
  keys: VapidKeys,
  subscription: PushSubscriptionRecord,
  message: PushMessage,
): Promise<void> {
  const { endpoint, p256dh, auth } = subscription;
  const pushService = URL.canParse(endpoint) ? new URL(endpoint).host : undefined;
  try {
    const request = webPush.generateRequestDetails(
      { endpoint, keys: { p256dh, auth } },
      JSON.stringify(message),
      {
        vapidDetails: keys,
        TTL: PUSH_TTL_SECONDS,
        urgency: 'high',
        // A push `Topic` header is at most 32 base64url characters: the tag's, shortened.
        topic: message.tag.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 32) || 'slabdesk',
        contentEncoding: 'aes128gcm',
      },
    );
    const response = await fetch(request.endpoint, {
      method: request.method,
      headers: request.headers as Record<string, string>,
      body: new Uint8Array(request.body),
      redirect: 'error',
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
    await response.body?.cancel();
    // The subscription is gone: dropped.
    if (response.status === 404 || response.status === 410) store.drop('endpoint', [endpoint]);
    else if (!response.ok) {
      const { status } = response;
      serverLog.warn({ status, pushService }, 'Push: the push service refused a notification');
    }
  } catch (error) {
    serverLog.warn({ err: error, pushService }, 'Push: a notification could not be sent');
  }
}

interface PushDeps {
  hub: ServerHub;
  replica: Replica;
  shows: ShowStore | undefined;
  /** The store's file (beside the hub's ledger). */
  path: string;
  publicUrl: string | undefined;
  sessions: {
    alive: (sessionHash: string) => boolean;
    onEnded: (listener: SessionsEndedListener) => () => void;
  };
}

/** The push part: its store, the keys, the cases' watch. */
export type PushPart = ReturnType<typeof openPush>;
export function openPush(options: PushOptions = {}, deps: PushDeps) {
  const store = new PushStore(deps.path);
  const keys = vapidKeysFor(store, { ...options.vapid, publicUrl: deps.publicUrl });
  const { shows, replica, hub } = deps;
  // One push to every subscription whose session lives (others dropped); never throws.
  const send = async (message: PushMessage) => {
    let subscriptions: PushSubscriptionRecord[] = [];
    guarded('reading the push subscriptions', () => (subscriptions = store.subscriptions()));
    const live = subscriptions.filter(({ sessionHash, endpoint }) => {
      if (sessionHash === null || deps.sessions.alive(sessionHash)) return true;
      // Its session ended (expired, or signed out where the end was not told): not this phone's.
      store.drop('endpoint', [endpoint]);
      return false;
    });
    await Promise.all(live.map((one) => sendOne(store, keys, one, message)));
  };
  const watch = shows && new SoldOnlineWatch(replica, shows, store, send, hub);
  // Signed out (here, or everywhere): the phones of those sessions are told nothing more.
  const offEnded = deps.sessions.onEnded((ended, account) =>
    ended === 'all-of-user' ? store.drop('account', [account]) : store.drop('session_hash', ended),
  );
  const close = async () => {
    offEnded();
    await watch?.close();
    store.close();
  };
  return { store, keys, watch, close };
}
