import { abortError } from '../../client/abortable';
import type { LeakyBucketPacer, PacerTicket, RequestPriority } from '../../client/pacer';

/** How much one share (a session, a person, an address) may hold: waiting, in flight, per tab. */
interface FairShareLimits {
  maxWaitingPerShare: number;
  maxInFlightPerShare: number;
  maxInFlightPerTab: number;
}

export class TooManyWaitingError extends Error {
  constructor(
    readonly waiting: number,
    readonly retryAfterSeconds: number,
  ) {
    super(`${waiting} calls of this share are already waiting`);
    this.name = 'TooManyWaitingError';
  }
}

/** Items by share, round-robin (one turn per share per round); in a share, the oldest that may go. */
export class FairQueue<T> {
  // A Map keeps insertion order: the order of the round, the share served last at the back.
  private readonly shares = new Map<string, T[]>();
  size = 0;

  add(share: string, item: T): void {
    const items = this.shares.get(share);
    if (items) items.push(item);
    else this.shares.set(share, [item]);
    this.size++;
  }

  remove(share: string, item: T): boolean {
    const items = this.shares.get(share);
    const index = items ? items.indexOf(item) : -1;
    if (!items || index < 0) return false;
    items.splice(index, 1);
    if (items.length === 0) this.shares.delete(share);
    this.size--;
    return true;
  }

  countOf(share: string): number {
    return this.shares.get(share)?.length ?? 0;
  }

  hasNext(may: (share: string, item: T) => boolean): boolean {
    for (const [share, items] of this.shares) {
      if (items.some((item) => may(share, item))) return true;
    }
    return false;
  }

  /** The oldest item `may` allows of the next share in the round with one; that share goes last. */
  next(may: (share: string, item: T) => boolean): T | undefined {
    for (const [share, items] of this.shares) {
      const index = items.findIndex((item) => may(share, item));
      if (index < 0) continue;
      const [item] = items.splice(index, 1);
      this.shares.delete(share);
      if (items.length > 0) this.shares.set(share, items);
      this.size--;
      return item;
    }
    return undefined;
  }

  drain(): T[] {
    const all = [...this.shares.values()].flat();
    this.shares.clear();
    this.size = 0;
    return all;
  }
}

interface Waiter {
  share: string;
  tab: string;
  resolve(ticket: PacerTicket): void;
  reject(error: unknown): void;
  detach(): void;
}

const PRIORITIES: readonly RequestPriority[] = ['interactive', 'background', 'bulk'];

// A share's clicks and its background and bulk work have caps apart, per share and per tab.
const slotsOf = (priority: RequestPriority, share: string, tab: string): [string, string] => {
  const slot = `${priority === 'interactive' ? 'click' : 'work'}\u0000${share}`;
  return [slot, `${slot}\u0000${tab}`];
};

/** The waiting room: one pacer ticket asked per priority at a time, given to whichever share's turn. */
export class FairGate {
  private readonly queues: Record<RequestPriority, FairQueue<Waiter>> = {
    interactive: new FairQueue(),
    background: new FairQueue(),
    bulk: new FairQueue(),
  };
  // The pacer request standing for the next call of each priority, when one waits.
  private readonly asking: Partial<Record<RequestPriority, AbortController>> = {};
  // Calls in flight by share's slot and by tab's slot (the tab's key is the longer).
  private readonly inFlight = new Map<string, number>();
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly pacer: LeakyBucketPacer,
    private readonly limits: FairShareLimits,
    // Decides, at the instant of a grant, whether any call may go, and is told which went.
    private readonly watch: { mayGrant(): boolean; granted(ticket: PacerTicket): void },
  ) {}

  /** A ticket once it is this share's turn and its tab has a slot; refused past the waiting bound. */
  acquire(
    priority: RequestPriority,
    share: string,
    signal?: AbortSignal,
    tab = '',
  ): Promise<PacerTicket> {
    if (signal?.aborted) return Promise.reject(abortError(signal));
    const waiting = PRIORITIES.reduce((sum, p) => sum + this.queues[p].countOf(share), 0);
    if (waiting >= this.limits.maxWaitingPerShare) {
      // About when the bucket will have let this share's waiting calls through.
      const seconds = Math.max(1, Math.ceil(waiting / this.pacer.snapshot().perSecond));
      return Promise.reject(new TooManyWaitingError(waiting, seconds));
    }
    return new Promise<PacerTicket>((resolve, reject) => {
      const queue = this.queues[priority];
      const onAbort = () => {
        if (!queue.remove(share, waiter)) return;
        reject(abortError(signal!));
        this.refill();
      };
      const detach = () => signal?.removeEventListener('abort', onAbort);
      const waiter: Waiter = { share, tab, resolve, reject, detach };
      signal?.addEventListener('abort', onAbort, { once: true });
      queue.add(share, waiter);
      this.refill();
    });
  }

  /** Rejects every waiting call with `error` (a long pause began). */
  refuseAll(error: unknown): void {
    for (const priority of PRIORITIES) {
      for (const waiter of this.queues[priority].drain()) {
        waiter.detach();
        waiter.reject(error);
      }
    }
    this.refill();
  }

  /** Asks the pacer for a ticket for each priority with a call that may go, and for no other. */
  refill(): void {
    for (const priority of PRIORITIES) {
      const wanted = this.watch.mayGrant() && this.queues[priority].hasNext(this.mayGo(priority));
      const asking = this.asking[priority];
      if (wanted && !asking) this.ask(priority);
      if (!wanted && asking) {
        delete this.asking[priority];
        asking.abort();
      }
    }
    for (const listener of this.listeners) listener();
  }

  waitingBy(): Record<RequestPriority, number> {
    const { interactive, background, bulk } = this.queues;
    return { interactive: interactive.size, background: background.size, bulk: bulk.size };
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // A click is never held behind its share's bulk work, only its share's other clicks; a tab's
  // call waits behind its own tab's calls, never behind all of another tab's.
  private mayGo(priority: RequestPriority): (share: string, waiter: Waiter) => boolean {
    return (share, waiter) => {
      const [slot, tabSlot] = slotsOf(priority, share, waiter.tab);
      const { maxInFlightPerShare, maxInFlightPerTab } = this.limits;
      const count = (key: string) => this.inFlight.get(key) ?? 0;
      return count(slot) < maxInFlightPerShare && count(tabSlot) < maxInFlightPerTab;
    };
  }

  private ask(priority: RequestPriority): void {
    const asking = new AbortController();
    this.asking[priority] = asking;
    // Rejected only when refill took the request back: nobody of this priority could go any more.
    const done = () => {
      if (this.asking[priority] === asking) delete this.asking[priority];
    };
    this.pacer.acquire(asking.signal, priority).then((ticket) => {
      done();
      this.hand(priority, ticket);
    }, done);
  }

  /** Gives a fresh ticket to the share whose turn it is; nobody may go: the ticket goes back. */
  private hand(priority: RequestPriority, ticket: PacerTicket): void {
    const waiter = this.watch.mayGrant()
      ? this.queues[priority].next(this.mayGo(priority))
      : undefined;
    if (!waiter) {
      ticket.settle();
      this.refill();
      return;
    }
    const slots = slotsOf(priority, waiter.share, waiter.tab);
    for (const slot of slots) this.inFlight.set(slot, (this.inFlight.get(slot) ?? 0) + 1);
    let settled = false;
    const shared: PacerTicket = {
      settle: (report) => {
        if (settled) return;
        settled = true;
        for (const slot of slots) {
          const left = this.inFlight.get(slot)! - 1;
          if (left > 0) this.inFlight.set(slot, left);
          else this.inFlight.delete(slot);
        }
        ticket.settle(report);
        this.refill();
      },
    };
    this.watch.granted(shared);
    waiter.detach();
    waiter.resolve(shared);
    this.refill();
  }
}
