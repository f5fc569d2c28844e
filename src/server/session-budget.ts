import type { FastifyRequest } from 'fastify';

/**
 * Each session's budget of this server's time, for the routes whose work grows with the data
 * (a listing's rule line, a preview, a run's detail): a leaky bucket of milliseconds. A call may
 * start while the session has time left; what it took is charged after (at least `minChargeMs`),
 * so one large call can overdraw and the next waits longer. Over budget, the route answers 429
 * with `Retry-After`. Keyed by the session (its id's hash); callers without one (sign-in off, or
 * not signed in) share one key.
 */
export interface BudgetOptions {
  /** The most a session may spend at once (ms). */
  burstMs: number;
  /** What a session gets back each second (ms): its sustained share of one core. */
  refillMsPerSecond: number;
  /** The least a call is charged (ms), however little it did: a flood of cheap calls costs too. */
  minChargeMs: number;
}

export const DEFAULT_BUDGET: BudgetOptions = {
  burstMs: 3_000,
  refillMsPerSecond: 150,
  minChargeMs: 1,
};

/** The key of callers without a session. */
export const SHARED_KEY = 'shared';
/** Sessions tracked at most; a full budget is the same as none kept, so those go first. */
const MAX_KEYS = 10_000;

interface Account {
  /** Milliseconds left (negative: overdrawn). */
  left: number;
  at: number;
}

export class SessionBudget {
  private readonly accounts = new Map<string, Account>();

  constructor(
    private readonly options: BudgetOptions = DEFAULT_BUDGET,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The request's budget key: its session's, or the shared one. */
  static keyOf(request: Pick<FastifyRequest, 'admission'>): string {
    return request.admission.session?.idHash ?? SHARED_KEY;
  }

  /** Seconds until the key may call again; 0 when it may now. */
  retryAfterSeconds(key: string): number {
    const left = this.left(key);
    if (left > 0) return 0;
    return Math.max(1, Math.ceil((1 - left) / this.options.refillMsPerSecond));
  }

  /** Charges what a call took. */
  charge(key: string, ms: number): void {
    const left = this.left(key) - Math.max(this.options.minChargeMs, ms);
    this.accounts.delete(key);
    this.accounts.set(key, { left, at: this.now() });
    if (this.accounts.size > MAX_KEYS) this.forgetFull();
  }

  private left(key: string): number {
    const account = this.accounts.get(key);
    if (!account) return this.options.burstMs;
    const back = ((this.now() - account.at) / 1000) * this.options.refillMsPerSecond;
    return Math.min(this.options.burstMs, account.left + back);
  }

  private forgetFull(): void {
    for (const key of this.accounts.keys()) {
      if (this.left(key) >= this.options.burstMs) this.accounts.delete(key);
    }
    // Still too many: the least recently charged go (their debt is forgiven, not anyone else's).
    for (const key of this.accounts.keys()) {
      if (this.accounts.size <= MAX_KEYS) break;
      this.accounts.delete(key);
    }
  }
}
