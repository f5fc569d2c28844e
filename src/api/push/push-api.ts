import * as z from 'zod/mini';
import type { SlabdeskClient } from '../../client';
import { PUSH_PATHS } from '../../client/hub-messages';
import { callServer } from '../server-call';

/** Our server's Web Push (`/hub/push`): its VAPID key, and this browser's subscription. */

const KeyAnswer = z.object({ publicKey: z.string() });
const Saved = z.object({ subscribed: z.boolean() });
const Dropped = z.object({ unsubscribed: z.boolean() });

export const fetchPushKey = (client: SlabdeskClient) =>
  callServer(client, KeyAnswer, PUSH_PATHS.key).then((answer) => answer.publicKey);

/** Keeps this browser's subscription (`PushSubscription.toJSON()`) under the signed-in account. */
export const savePushSubscription = (client: SlabdeskClient, subscription: PushSubscriptionJSON) =>
  callServer(client, Saved, PUSH_PATHS.subscriptions, { method: 'POST', body: subscription });

export const dropPushSubscription = (client: SlabdeskClient, endpoint: string) =>
  callServer(client, Dropped, PUSH_PATHS.subscriptions, { method: 'DELETE', body: { endpoint } });

/** The key as `pushManager.subscribe` takes it (bytes, from base64url). */
export function applicationServerKey(publicKey: string): Uint8Array<ArrayBuffer> {
  const base64 = publicKey.replace(/-/g, '+').replace(/_/g, '/');
  const text = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let index = 0; index < text.length; index++) bytes[index] = text.charCodeAt(index);
  return bytes;
}
