import webPush from 'web-push';
import type { PushStore } from './push-store';

/** The hub's VAPID identity: the key pair push services know this server by, and its contact. */
export interface VapidKeys {
  /** The uncompressed P-256 public key, base64url (what `pushManager.subscribe` takes). */
  publicKey: string;
  privateKey: string;
  /** An https: or mailto: address the push services may write to. */
  subject: string;
}

/** Where no subject is set and the public address is not https (push services want a contact). */
export const DEFAULT_SUBJECT = 'mailto:push@slabdesk.invalid';

/**
 * The keys from the settings when given (both halves), else the pair this hub made at its first
 * start and kept in its private store: a phone's subscription holds the public key, so it must not
 * change between starts.
 */
export function vapidKeysFor(
  store: PushStore,
  given: { publicKey?: string; privateKey?: string; subject?: string; publicUrl?: string },
): VapidKeys {
  const subject =
    given.subject ?? (given.publicUrl?.startsWith('https:') ? given.publicUrl : DEFAULT_SUBJECT);
  if (given.publicKey && given.privateKey) {
    return { publicKey: given.publicKey, privateKey: given.privateKey, subject };
  }
  const keptPublic = store.meta('vapid_public_key');
  const keptPrivate = store.meta('vapid_private_key');
  if (keptPublic && keptPrivate) return { publicKey: keptPublic, privateKey: keptPrivate, subject };
  const made = webPush.generateVAPIDKeys();
  store.setMeta('vapid_public_key', made.publicKey);
  store.setMeta('vapid_private_key', made.privateKey);
  return { publicKey: made.publicKey, privateKey: made.privateKey, subject };
}
