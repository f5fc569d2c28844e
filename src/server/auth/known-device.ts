import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * OWASP's device cookies: a browser that has signed in to an account keeps a signed token naming
 * that account, and sign-in slowing then treats it apart from the crowd of unknown clients, so an
 * attacker's failures cannot lock its owner out.
 */
export const deviceCookieName = (secure: boolean) =>
  secure ? '__Host-slabdesk_device' : 'slabdesk_device';

export const DEVICE_COOKIE_MAX_AGE_SECONDS = 180 * 24 * 3600;

const NONCE = /^[0-9a-f]{32}$/;
const MAC = /^[0-9a-f]{64}$/;

/** The account as the token binds it: its name, and its password hash (a new password forgets every device). */
export interface DeviceAccount {
  name: string;
  passwordHash: string;
}

export class KnownDevices {
  constructor(private readonly key: Buffer) {}

  /** A new token for this browser and account: `<nonce>_<mac>`. */
  issue(account: DeviceAccount): string {
    const nonce = randomBytes(16).toString('hex');
    return `${nonce}_${this.mac(account, nonce)}`;
  }

  /** The device's id (its nonce) when the token was issued for this account as it is now, else null. */
  deviceOf(token: string | undefined, account: DeviceAccount | undefined): string | null {
    if (!token || !account) return null;
    const [nonce, mac] = token.split('_');
    if (!nonce || !mac || !NONCE.test(nonce) || !MAC.test(mac)) return null;
    const expected = Buffer.from(this.mac(account, nonce), 'hex');
    return timingSafeEqual(expected, Buffer.from(mac, 'hex')) ? nonce : null;
  }

  private mac(account: DeviceAccount, nonce: string): string {
    return createHmac('sha256', this.key)
      .update(`${account.name.toLowerCase()}\n${account.passwordHash}\n${nonce}`)
      .digest('hex');
  }
}
