import webPush from 'web-push';
import { serverLog } from '../log';
import type { PushStore, PushSubscriptionRecord } from './push-store';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  /** An https: or mailto: address the push services may write to. */
  subject: string;
}

/** What a phone shows for a push: its title and line, and the page a press opens. */
export interface PushMessage {
  title: string;
  body: string;
  /** An app path (the counter view of the slab). */
  url: string;
  /** One notification per slab: a second push of it replaces the first on the phone. */
  tag: string;
}

/** A sale at the table is news for a day: a phone off longer than that is told nothing stale. */
export const PUSH_TTL_SECONDS = 24 * 60 * 60;
/** A push service that has not answered in this long is given up on for this push. */
const SEND_TIMEOUT_MS = 10_000;

export interface PushSenderOptions {
  store: PushStore;
  keys: VapidKeys;
  /** Whether a subscription's session is still open (sign-in on); a closed one is dropped. */
  sessionAlive?: (sessionHash: string) => boolean;
}

/**
 * Sends one push to every kept subscription: encrypted and signed by `web-push` (aes128gcm,
 * VAPID), posted by `fetch`. A push service's 404 or 410 (the subscription is gone) drops it;
 * any other failure is logged and the rest are still sent. Never throws.
 */
export class PushSender {
  constructor(private readonly options: PushSenderOptions) {}

  /** Sends to every subscription; the number the push services accepted. */
  async sendAll(message: PushMessage): Promise<number> {
    const { store, sessionAlive } = this.options;
    let subscriptions: PushSubscriptionRecord[];
    try {
      subscriptions = store.subscriptions();
    } catch (error) {
      serverLog.error({ err: error }, 'Push: could not read the subscriptions');
      return 0;
    }
    const live = subscriptions.filter((subscription) => {
      if (subscription.sessionHash === null || !sessionAlive) return true;
      if (sessionAlive(subscription.sessionHash)) return true;
      // Its session ended (expired, or signed out where the end was not told): not this phone's.
      store.unsubscribe(subscription.endpoint);
      return false;
    });
    const sent = await Promise.all(live.map((subscription) => this.send(subscription, message)));
    return sent.filter(Boolean).length;
  }

  private async send(subscription: PushSubscriptionRecord, message: PushMessage): Promise<boolean> {
    const { keys, store } = this.options;
    try {
      const request = webPush.generateRequestDetails(
        {
          endpoint: subscription.endpoint,
          keys: { p256dh: subscription.p256dh, auth: subscription.auth },
        },
        JSON.stringify(message),
        {
          vapidDetails: keys,
          TTL: PUSH_TTL_SECONDS,
          urgency: 'high',
          topic: topicOf(message.tag),
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
      if (response.status === 404 || response.status === 410) {
        store.unsubscribe(subscription.endpoint);
        return false;
      }
      if (!response.ok) {
        serverLog.warn(
          { status: response.status, pushService: new URL(subscription.endpoint).host },
          'Push: the push service refused a notification',
        );
        return false;
      }
      return true;
    } catch (error) {
      serverLog.warn(
        { err: error, pushService: hostOf(subscription.endpoint) },
        'Push: a notification could not be sent',
      );
      return false;
    }
  }
}

/** A push `Topic` header is at most 32 base64url characters: the tag's, shortened. */
function topicOf(tag: string): string {
  return tag.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 32) || 'slabdesk';
}

function hostOf(endpoint: string): string | undefined {
  try {
    return new URL(endpoint).host;
  } catch {
    return undefined;
  }
}
