import { availableParallelism } from 'node:os';

/**
 * Password checks run a few at a time: each takes a lot of memory and CPU, so a flood of wrong
 * sign-ins must wait its turn (or be turned away) rather than slow every other request. Checks
 * from unknown clients get fewer slots than there are, so one is always free for a known device.
 */
export type HashingPriority = 'trusted' | 'untrusted';

export interface HashingLimits {
  /** Checks running at once. */
  concurrent: number;
  /** Of those, checks of unknown clients. */
  untrustedConcurrent: number;
  /** Checks allowed to wait, by priority; past it a check is turned away at once. */
  waiting: Record<HashingPriority, number>;
}

export const DEFAULT_HASHING: HashingLimits = {
  concurrent: 2,
  // On one core, the only slot is shared; on more, one stays free for known devices.
  untrustedConcurrent: availableParallelism() > 1 ? 1 : 2,
  waiting: { trusted: 16, untrusted: 4 },
};

export class HashingQueue {
  private readonly running: Record<HashingPriority, number> = { trusted: 0, untrusted: 0 };
  private readonly lines: Record<HashingPriority, (() => void)[]> = { trusted: [], untrusted: [] };

  constructor(private readonly limits: HashingLimits = DEFAULT_HASHING) {}

  /**
   * Runs `work` when a slot is free, trusted checks before untrusted ones; `{ busy: true }` at
   * once when the line for its priority is full.
   */
  async run<T>(
    priority: HashingPriority,
    work: () => Promise<T>,
  ): Promise<{ busy: false; value: T } | { busy: true }> {
    const line = this.lines[priority];
    if (line.length === 0 && this.mayStart(priority)) {
      this.running[priority] += 1;
    } else {
      if (line.length >= this.limits.waiting[priority]) return { busy: true };
      // `startNext` counts the check as running before it lets it go.
      await new Promise<void>((resolve) => line.push(resolve));
    }
    try {
      return { busy: false, value: await work() };
    } finally {
      this.running[priority] -= 1;
      this.startNext();
    }
  }

  private mayStart(priority: HashingPriority): boolean {
    const total = this.running.trusted + this.running.untrusted;
    if (total >= this.limits.concurrent) return false;
    return priority === 'trusted' || this.running.untrusted < this.limits.untrustedConcurrent;
  }

  private startNext(): void {
    for (const priority of ['trusted', 'untrusted'] as const) {
      if (this.lines[priority].length > 0 && this.mayStart(priority)) {
        this.running[priority] += 1;
        this.lines[priority].shift()?.();
        return;
      }
    }
  }
}
