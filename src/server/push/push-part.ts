import { dirname, join } from 'node:path';
import type { ServerHub } from '../hub/server-hub';
import type { Replica } from '../replica/replica';
import type { ShowStore } from '../shows/show-store';
import type { SessionsEndedListener } from '../auth/session-book';
import { PushSender } from './push-sender';
import { PushStore } from './push-store';
import { SOLD_ONLINE_MESSAGE, SoldOnlineWatch } from './sold-online-watch';
import { vapidKeysFor, type VapidKeys } from './vapid-keys';

/** How the hub tells the table of a case slab sold online (AppServerOptions.push). */
export interface PushOptions {
  /** Where subscriptions, alerts and the VAPID keys are kept (default: beside the hub's ledger). */
  path?: string;
  /** `SLABDESK_VAPID_PUBLIC_KEY` / `_PRIVATE_KEY` / `_SUBJECT`; unset: a pair made once, kept. */
  vapid?: { publicKey?: string; privateKey?: string; subject?: string };
  /** Loopback push services accepted: the tests' own push service only, never a setting. */
  allowLoopbackEndpoints?: boolean;
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

/**
 * The push part composed: its store beside the hub's ledger (in memory when the ledger is), the
 * keys, the sender, and the watch of the cases; a session's end drops its phones' subscriptions.
 */
export function openPush(options: PushOptions = {}, deps: PushDeps): PushPart {
  const ledger = deps.ledgerPath ?? ':memory:';
  const path =
    options.path ?? (ledger === ':memory:' ? ':memory:' : join(dirname(ledger), 'push.db'));
  const store = new PushStore(path);
  const keys = vapidKeysFor(store, { ...options.vapid, publicUrl: deps.publicUrl });
  const sender = new PushSender({ store, keys, sessionAlive: deps.sessions.alive });
  const watch = deps.shows
    ? new SoldOnlineWatch({
        replica: deps.replica,
        shows: deps.shows,
        store,
        sender,
        broadcast: (event, data) => deps.hub.events.broadcast(event, data),
      })
    : undefined;
  if (watch)
    deps.hub.greetWith(() => ({ [SOLD_ONLINE_MESSAGE]: { alerts: watch.recentAlerts() } }));
  // Signed out (here, or everywhere): the phones of those sessions are told nothing more.
  const offEnded = deps.sessions.onEnded((ended, account) => {
    if (ended === 'all-of-user') store.dropAccount(account);
    else store.dropSessions(ended);
  });
  return {
    store,
    keys,
    sender,
    watch,
    close: async () => {
      offEnded();
      await watch?.close();
      store.close();
    },
  };
}
