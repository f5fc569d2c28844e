import type { BucketSnapshot } from './pacer';

// The server hub's messages, as a tab receives them on `/hub/events` and the server sends them
// (src/server/hub imports these shapes: one definition for both ends).

/** One webhook delivery as the hub tells the tabs about it. */
export interface HubWebhookEvent {
  eventId: string;
  topic: string;
  /** When the server accepted it (ISO). */
  receivedAt: string;
  test: boolean;
  payload: unknown;
}

/** One line of the events view: what arrived and what the receiver made of it. */
export interface HubLogEntry {
  at: string;
  outcome: 'applied' | 'duplicate' | 'rejected';
  topic: string | undefined;
  eventId: string | undefined;
  /** Why a delivery was refused (`bad_signature`, `stale_timestamp`, ...). */
  reason?: string;
  attempt?: number;
  /** The delivery's body, where the server keeps it in its log (read tolerantly). */
  payload?: unknown;
}

/** How webhooks reach this server: the tabs fall back to polling unless they do. */
export interface HubStatus {
  /** `registered` (embedded sandbox), `configured` (a signing secret), or `off`: unverifiable. */
  webhooks: 'registered' | 'configured' | 'off';
  /** The path the API should deliver to. */
  path: string;
  /** When the last verified delivery arrived (ISO), if any since the server started. */
  lastDeliveryAt: string | undefined;
  startedAt: string;
  /** Posts refused before verification, counted by reason, never logged one by one nor pushed. */
  rejectedDeliveries?: Record<string, number>;
}

/** The governor's model of the key's bucket, shared by every tab. */
export interface HubBucket extends BucketSnapshot {
  answered: number;
  rateLimited: number;
}

/** Rows of these collections changed in the hub's replica: read the change feed from the cursor. */
export interface HubReplicaEvent {
  collections: string[];
  /** The hub's newest change number. */
  change: number;
}

export const HUB_EVENTS_PATH = '/hub/events';
export const HUB_LOG_PATH = '/hub/log';

/** A case slab sold online (`sold_online`): the table's phone says to pull it, once per sale. */
export interface HubSoldOnlineAlert {
  listingId: string;
  /** The card as the listing names it. */
  title: string;
  certNumber: string | null;
  grader: string | null;
  showKey: string;
  showName: string;
  /** When the hub learned of the sale (ISO). */
  soldAt: string;
  /** The counter view of the slab (an app path). */
  url: string;
}

/** The `sold_online` message: the alerts not yet old (on opening), then each new one. */
export interface HubSoldOnlineEvent {
  alerts: HubSoldOnlineAlert[];
}

/** Web Push on the hub: its VAPID public key, and this browser's subscription (POST, DELETE). */
export const PUSH_PATHS = {
  key: '/hub/push/key',
  subscriptions: '/hub/push/subscriptions',
} as const;
