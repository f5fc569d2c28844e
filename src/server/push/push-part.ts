import { dirname, join } from 'node:path';
import webPush from 'web-push';
import type { ServerHub } from '../hub/server-hub';
import type { Replica } from '../replica/replica';
import type { ShowStore } from '../shows/show-store';
import type { SessionsEndedListener } from '../auth/session-book';
import { PushSender, type VapidKeys } from './push-sender';

export type { VapidKeys } from './push-sender';
import { PushStore } from './push-store';
import { SOLD_ONLINE_MESSAGE, SoldOnlineWatch } from './sold-online-watch';

/** How the hub tells the table of a case slab sold online (AppServerOptions.push). */
export interface PushOptions {
  /** Where subscriptions, alerts and the VAPID keys are kept (default: beside the hub's ledger). */
  path?: string;
  /** `SLABDESK_VAPID_PUBLIC_KEY` / `_PRIVATE_KEY` / `_SUBJECT`; unset: a pair made once, kept. */
  vapid?: { publicKey?: string; privateKey?: string; subject?: string };
  /** Loopback push services accepted: the tests' own push service only, never a setting. */
  allowLoopbackEndpoints?: boolean;
}

/** The hub's VAPID identity: its P-256 pair (public: base64url) and its contact. */
/** Where no subject is set and the public address is not https (push services want a contact). */
export const DEFAULT_SUBJECT = 'mailto:push@slabdesk.invalid';

/** The keys from the settings, else a pair made once and kept (a subscription holds the public one). */
export function vapidKeysFor(
  store: PushStore,
  given: { publicKey?: string; privateKey?: string; subject?: string; publicUrl?: string },
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

export interface PushPart {
  store: PushStore;
  keys: VapidKeys;
  sender: PushSender;
  /** None without a show ledger (no cases to watch). */
  watch: SoldOnlineWatch | undefined;
  close(): Promise<void>;
}

export interface PushDeps {
  hub: ServerHub;
  replica: Replica;
  shows: ShowStore | undefined;
  ledgerPath: string | undefined;
  publicUrl: string | undefined;
  sessions: {
    alive: (sessionHash: string) => boolean;
    onEnded: (listener: SessionsEndedListener) => () => void;
  };
}

/** The push part: its store beside the hub's ledger, the keys, the sender, the cases' watch. */
export function openPush(options: PushOptions = {}, deps: PushDeps): PushPart {
  const ledger = deps.ledgerPath ?? ':memory:';
  const path =
    options.path ?? (ledger === ':memory:' ? ':memory:' : join(dirname(ledger), 'push.db'));
  const store = new PushStore(path);
  const keys = vapidKeysFor(store, { ...options.vapid, publicUrl: deps.publicUrl });
  const sender = new PushSender({ store, keys, sessionAlive: deps.sessions.alive });
  const { shows, replica, hub } = deps;
  const watch = shows
    ? new SoldOnlineWatch({
        replica,
        shows,
        store,
        sender,
        broadcast: (event, data) => hub.events.broadcast(event, data),
      })
    : undefined;
  if (watch) hub.greetWith(() => ({ [SOLD_ONLINE_MESSAGE]: { alerts: watch.recentAlerts() } }));
  // Signed out (here, or everywhere): the phones of those sessions are told nothing more.
  const offEnded = deps.sessions.onEnded((ended, account) => {
    if (ended === 'all-of-user') store.dropAccount(account);
    else store.dropSessions(ended);
  });
  const close = async () => {
    offEnded();
    await watch?.close();
    store.close();
  };
  return { store, keys, sender, watch, close };
}
