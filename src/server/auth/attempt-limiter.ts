/**
 * Slows sign-in guessing per key (account name, client address): past `freeFailures` within
 * `windowMs`, a doubling delay up to `maxDelayMs`. Bounded map, so a spray of names cannot grow it.
 */
export interface LimiterSettings {
  freeFailures: number;
  windowMs: number;
  firstDelayMs: number;
  maxDelayMs: number;
  maxEntries: number;
  now: () => number;
}

export const DEFAULT_LIMITS: Omit<LimiterSettings, 'now'> = {
  freeFailures: 5,
  windowMs: 15 * 60_000,
  firstDelayMs: 30_000,
  maxDelayMs: 15 * 60_000,
  maxEntries: 10_000,
};

interface Entry {
  failures: number;
  lastFailureAt: number;
  blockedUntil: number;
}

export class AttemptLimiter {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly settings: LimiterSettings) {}

  /** Seconds to wait before the next attempt for this key, or 0 when it may try now. */
  retryAfterSeconds(key: string): number {
    const entry = this.current(key);
    if (!entry) return 0;
    const wait = entry.blockedUntil - this.settings.now();
    return wait > 0 ? Math.ceil(wait / 1000) : 0;
  }

  fail(key: string): void {
    const now = this.settings.now();
    const entry = this.current(key) ?? { failures: 0, lastFailureAt: now, blockedUntil: 0 };
    entry.failures += 1;
    entry.lastFailureAt = now;
    const over = entry.failures - this.settings.freeFailures;
    if (over >= 0) {
      const delay = this.settings.firstDelayMs * 2 ** Math.min(over, 30);
      entry.blockedUntil = now + Math.min(delay, this.settings.maxDelayMs);
    }
    // Re-inserted, so the map's order is the order of last failure (oldest first).
    this.entries.delete(key);
    this.make(key, entry);
  }

  /** A successful sign-in forgets the account's failures. */
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
    if (entry && this.expired(entry, this.settings.now())) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private make(key: string, entry: Entry): void {
    if (this.entries.size >= this.settings.maxEntries) {
      const now = this.settings.now();
      for (const [name, old] of this.entries) if (this.expired(old, now)) this.entries.delete(name);
      // Then the oldest tenth at once, so a full map is not swept again at every failure.
      const keep = Math.floor(this.settings.maxEntries * 0.9);
      while (this.entries.size > keep) {
        const oldest = this.entries.keys().next().value;
        if (oldest === undefined) break;
        this.entries.delete(oldest);
      }
    }
    this.entries.set(key, entry);
  }
}
