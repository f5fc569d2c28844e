import type { BucketSnapshot } from '../../client';

/** The server hub's messages, as a tab receives them on `/hub/events` (see src/server/hub). */
export interface HubWebhookEvent {
  eventId: string;
  topic: string;
  receivedAt: string;
  test: boolean;
  payload: unknown;
}

export interface HubLogEntry {
  at: string;
  outcome: 'applied' | 'duplicate' | 'rejected';
  topic: string | undefined;
  eventId: string | undefined;
  reason?: string;
  attempt?: number;
}

export interface HubStatus {
  webhooks: 'registered' | 'configured' | 'off';
  path: string;
  lastDeliveryAt: string | undefined;
  startedAt: string;
}

/** The governor's model of the key's bucket, shared by every tab. */
export interface HubBucket extends BucketSnapshot {
  answered: number;
  rateLimited: number;
}

export const HUB_EVENTS_PATH = '/hub/events';
export const HUB_LOG_PATH = '/hub/log';
