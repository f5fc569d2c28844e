import { createHmac, randomBytes } from 'node:crypto';
import { sameToken, type UserRow } from './accounts-store';

/** Past `freeFailures` within `windowMs`, a delay doubling from `firstDelayMs` to `maxDelayMs`. */
export const DEFAULT_LIMITS = {
  freeFailures: 5,
  windowMs: 15 * 60_000,
  firstDelayMs: 30_000,
  maxDelayMs: 15 * 60_000,
  maxEntries: 10_000,
};
type LimiterSettings = typeof DEFAULT_LIMITS & { now: () => number };

type Entry = { failures: number; lastFailureAt: number; blockedUntil: number };

/** Failures per key; a bounded map, so a spray of names cannot grow it. */
export class AttemptLimiter {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly settings: LimiterSettings) {}

  /** Seconds to wait before the next attempt for this key, or 0 when it may try now. */
  retryAfterSeconds(key: string): number {
    const wait = (this.current(key)?.blockedUntil ?? 0) - this.settings.now();
    return wait > 0 ? Math.ceil(wait / 1000) : 0;
  }

  fail(key: string): void {
    const { now, freeFailures, firstDelayMs, maxDelayMs, maxEntries } = this.settings;
    const at = now();
    const entry = this.current(key) ?? { failures: 0, lastFailureAt: at, blockedUntil: 0 };
    entry.failures += 1;
    entry.lastFailureAt = at;
    const over = Math.min(entry.failures - freeFailures, 30);
    if (over >= 0) entry.blockedUntil = at + Math.min(firstDelayMs * 2 ** over, maxDelayMs);
    // Re-inserted, so the map's order is the order of last failure (oldest first).
    this.entries.delete(key);
    if (this.entries.size >= maxEntries) {
      for (const [name, old] of this.entries) if (this.expired(old, at)) this.entries.delete(name);
      // Then the oldest tenth at once, so a full map is not swept again at every failure.
      const excess = Math.max(this.entries.size - Math.floor(maxEntries * 0.9), 0);
      for (const name of [...this.entries.keys()].slice(0, excess)) this.entries.delete(name);
    }
    this.entries.set(key, entry);
  }

  /** A successful sign-in forgets the key's failures. */
  clear(key: string): void {
    this.entries.delete(key);
  }

  size(): number {
    return this.entries.size;
  }

  private expired(entry: Entry, now: number): boolean {
    return now - Math.max(entry.lastFailureAt, entry.blockedUntil) > this.settings.windowMs;
  }

  private current(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (!entry || !this.expired(entry, this.settings.now())) return entry;
    this.entries.delete(key);
    return undefined;
  }
}

/** One sign-in attempt: the account asked for (lower case), the address, a valid device's id. */
type SignInAttempt = { account: string; address: string; device: string | null };

const KNOWN_ADDRESS_MS = 30 * 24 * 3600_000;
const MAX_KNOWN_ADDRESSES = 10_000;
const pair = (attempt: SignInAttempt) => `${attempt.account}\n${attempt.address}`;

/**
 * Slows password guessing without locking the owner out. A known device is slowed only by its own
 * failures; anyone else per account and address and per address, and addresses the account never
 * signed in from share one more count per account, so a guesser rotating addresses is slowed.
 */
export class SignInSlowing {
  private readonly limiters;
  /** `account\naddress` → when it last signed in, oldest first. */
  private readonly knownAddresses = new Map<string, number>();

  constructor(private readonly settings: LimiterSettings) {
    const limiter = () => new AttemptLimiter(settings);
    this.limiters = {
      device: limiter(),
      pair: limiter(),
      address: limiter(),
      strangers: limiter(),
    };
  }

  /** How far an attempt is trusted: a known device, an address this account signed in from, or neither. */
  trust(attempt: SignInAttempt): 'device' | 'address' | 'none' {
    if (attempt.device) return 'device';
    const at = this.knownAddresses.get(pair(attempt));
    return at !== undefined && this.settings.now() - at < KNOWN_ADDRESS_MS ? 'address' : 'none';
  }

  private counting(attempt: SignInAttempt): [AttemptLimiter, string][] {
    const trust = this.trust(attempt);
    const { device, pair: byPair, address, strangers } = this.limiters;
    if (trust === 'device') return [[device, attempt.device ?? '']];
    const all: [AttemptLimiter, string][] = [
      [byPair, pair(attempt)],
      [address, attempt.address],
    ];
    return trust === 'none' ? [...all, [strangers, attempt.account]] : all;
  }

  retryAfterSeconds(attempt: SignInAttempt): number {
    return Math.max(
      ...this.counting(attempt).map(([limiter, key]) => limiter.retryAfterSeconds(key)),
    );
  }

  failed(attempt: SignInAttempt): void {
    for (const [limiter, key] of this.counting(attempt)) limiter.fail(key);
  }

  /** The address becomes known; the strangers' count is forgotten only on a stranger's success. */
  succeeded(attempt: SignInAttempt): void {
    // The owner signing in at home must not lift the slowing of a guesser elsewhere.
    if (this.trust(attempt) === 'none') this.limiters.strangers.clear(attempt.account);
    if (attempt.device) this.limiters.device.clear(attempt.device);
    const key = pair(attempt);
    this.limiters.pair.clear(key);
    this.knownAddresses.delete(key);
    this.knownAddresses.set(key, this.settings.now());
    if (this.knownAddresses.size > MAX_KNOWN_ADDRESSES) {
      this.knownAddresses.delete(this.knownAddresses.keys().next().value!);
    }
  }
}

export const DEVICE_COOKIE_MAX_AGE_SECONDS = 180 * 24 * 3600;

/** A device token binds the account's name and password hash (a new password forgets devices). */
type DeviceAccount = Pick<UserRow, 'name' | 'passwordHash'>;

/** OWASP's device cookies: a browser that signed in keeps a signed token naming the account. */
export class KnownDevices {
  constructor(private readonly key: Buffer) {}

  /** A new token for this browser and account: `<nonce>_<mac>`. */
  issue(account: DeviceAccount): string {
    const nonce = randomBytes(16).toString('hex');
    return `${nonce}_${this.mac(account, nonce)}`;
  }

  /** The device's id (its nonce) when the token was issued for this account as it is now. */
  deviceOf(token: string | undefined, account: DeviceAccount | undefined): string | null {
    const [, nonce, mac] = /^([0-9a-f]{32})_([0-9a-f]{64})$/.exec(token ?? '') ?? [];
    if (!account || !nonce || !mac) return null;
    return sameToken(this.mac(account, nonce), mac) ? nonce : null;
  }

  private mac(account: DeviceAccount, nonce: string): string {
    return createHmac('sha256', this.key)
      .update(`${account.name.toLowerCase()}\n${account.passwordHash}\n${nonce}`)
      .digest('hex');
  }
}
