/** The bucket sizes per key mode: live 40 at 2 per second, test 20 at 1 per second. */
export const BUCKETS = {
  live: { capacity: 40, perSecond: 2 },
  test: { capacity: 20, perSecond: 1 },
} as const;

/** A leaky bucket per credential, drained at the mode's rate in real time; overflow is refused. */
export class LeakyBuckets {
  private readonly levels = new Map<string, { level: number; at: number }>();

  constructor(
    private readonly enabled = true,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Charges one call; `retryAfter`: whole seconds until one fits again (only when refused). */
  charge(keyId: string, mode: 'live' | 'test') {
    const { capacity, perSecond } = BUCKETS[mode];
    const now = this.now();
    const state = this.levels.get(keyId) ?? { level: 0, at: now };
    const level = Math.max(0, state.level - ((now - state.at) / 1000) * perSecond);
    if (!this.enabled) {
      return { allowed: true, used: 0, capacity, retryAfter: 0 };
    }
    if (level + 1 > capacity + 1e-9) {
      this.levels.set(keyId, { level, at: now });
      const retryAfter = Math.max(1, Math.ceil((level + 1 - capacity) / perSecond));
      return { allowed: false, used: capacity, capacity, retryAfter };
    }
    const next = level + 1;
    this.levels.set(keyId, { level: next, at: now });
    return {
      allowed: true,
      used: Math.min(capacity, Math.ceil(next - 1e-9)),
      capacity,
      retryAfter: 0,
    };
  }

  reset(): void {
    this.levels.clear();
  }
}
