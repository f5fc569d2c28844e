import { createECDH, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hubForFile, ownCall } from './auth-http';

/**
 * The finding "a push endpoint on `localhost.` or `router.local.` is kept": the check that a
 * phone's push service is on the internet read the host name as written, so a trailing dot (the
 * same name to DNS) or a name of one label (a local network's) passed it, and the hub would post
 * to this machine or the seller's network whenever a case slab sold online.
 */

const hub = hubForFile();

/** A subscription as a browser's `pushManager` makes it, to `endpoint`. */
function subscription(endpoint: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint,
    expirationTime: null,
    keys: {
      p256dh: ecdh.getPublicKey().toString('base64url'),
      auth: randomBytes(16).toString('base64url'),
    },
  };
}

const subscribe = (endpoint: string) =>
  ownCall(hub.app, 'POST', '/hub/push/subscriptions', subscription(endpoint));

describe('a push endpoint’s host', () => {
  it('is refused on this machine or a local network however the name is spelled, and never kept', async () => {
    const local = [
      'https://localhost./send/1',
      'https://LOCALHOST./send/1',
      'https://app.localhost./send/1',
      'https://router.local./send/1',
      'https://nas.home.arpa./send/1',
      'https://printer.lan./send/1',
      'https://intranet/send/1',
      'https://intranet./send/1',
      'https://./send/1',
    ];
    for (const endpoint of local) {
      const answer = await subscribe(endpoint);
      expect(answer.status, endpoint).toBe(422);
      expect(answer.json).toMatchObject({
        errors: { endpoint: ['must be a push service on the internet'] },
        svc_error: { code: 'validation_error' },
      });
    }
    expect(hub.app.push.store.subscriptions()).toEqual([]);
  });

  it('keeps a push service on the internet', async () => {
    const endpoint = 'https://fcm.googleapis.com/fcm/send/abc';
    expect((await subscribe(endpoint)).status).toBe(201);
    expect(hub.app.push.store.subscriptions().map((one) => one.endpoint)).toEqual([endpoint]);
  });
});
