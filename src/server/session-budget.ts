import type { FastifyRequest } from 'fastify';

/**
 * Each session's budget of this server's time, for the routes whose work grows with the data: a
 * call may start while time is left and is charged after, so a large one overdraws (then 429).
 */
export const DEFAULT_BUDGET = { burstMs: 3_000, refillMsPerSecond: 150, minChargeMs: 1 };
// Sessions tracked at most; a full budget is the same as none kept, so those go first.
const MAX_KEYS = 10_000;

export class SessionBudget {
  private readonly accounts = new Map<string, { left: number; at: number }>();

  constructor(
    private readonly options = DEFAULT_BUDGET,
    private readonly now: () => number = () => performance.now(),
  ) {}

  static keyOf(request: Pick<FastifyRequest, 'admission'>): string {
    return request.admission.session?.idHash ?? 'shared';
  }

  /** Seconds until the key may call again; 0 when it may now. */
  retryAfterSeconds(key: string): number {
    const left = this.left(key);
    if (left > 0) return 0;
    return Math.max(1, Math.ceil((1 - left) / this.options.refillMsPerSecond));
  }

  charge(key: string, ms: number): void {
    const left = this.left(key) - Math.max(this.options.minChargeMs, ms);
    this.accounts.delete(key);
    this.accounts.set(key, { left, at: this.now() });
    if (this.accounts.size <= MAX_KEYS) return;
    for (const key of this.accounts.keys()) {
      if (this.left(key) >= this.options.burstMs) this.accounts.delete(key);
    }
    // Still too many: the least recently charged go (their debt is forgiven, not anyone else's).
    for (const key of this.accounts.keys()) {
      if (this.accounts.size <= MAX_KEYS) break;
      this.accounts.delete(key);
    }
  }

  private left(key: string): number {
    const account = this.accounts.get(key);
    if (!account) return this.options.burstMs;
    const back = ((this.now() - account.at) / 1000) * this.options.refillMsPerSecond;
    return Math.min(this.options.burstMs, account.left + back);
  }
}
