import { abortError } from '../../client/abortable';
import type { LeakyBucketPacer, PacerTicket, RequestPriority } from '../../client/pacer';

/** How much of the governor one share (a session, or a client address) may hold. */
export interface FairShareLimits {
  /** Calls of one share waiting at once; past it a call is refused (TooManyWaitingError). */
  maxWaitingPerShare: number;
  /** In flight at once per share, so hung calls of one share leave room for others. */
  maxInFlightPerShare: number;
  /** In flight per tab, below the share's: a tab's hung calls leave its person's other tabs a slot. */
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

/**
 * Items waiting by share, served round-robin (one turn per share per round, however many it has);
 * within a share the oldest item that may go goes first, leaving a held one its share's turn.
 */
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

  /** Takes `item` out; false when it was not waiting (already served or removed). */
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

/** What decides, at the instant of a grant, whether any call may go, and is told which went. */
interface GrantWatch {
  mayGrant(): boolean;
  granted(ticket: PacerTicket): void;
}

interface Waiter {
  share: string;
  tab: string;
  resolve(ticket: PacerTicket): void;
  reject(error: unknown): void;
  detach(): void;
}

const PRIORITIES: readonly RequestPriority[] = ['interactive', 'background', 'bulk'];

const take = (counts: Map<string, number>, slot: string): void => {
  counts.set(slot, (counts.get(slot) ?? 0) + 1);
};

const give = (counts: Map<string, number>, slot: string): void => {
  const left = (counts.get(slot) ?? 1) - 1;
  if (left > 0) counts.set(slot, left);
  else counts.delete(slot);
};

// A share's clicks and its background and bulk work have caps apart (per tab: tab appended).
const slotOf = (priority: RequestPriority, share: string): string =>
  `${priority === 'interactive' ? 'click' : 'work'}\u0000${share}`;

/**
 * The governor's waiting room: calls wait by priority and share, and the pacer is asked for one
 * ticket per priority at a time; whoever's turn it is when the ticket comes gets it. So the pacer
 * orders the priorities and paces the bucket, and within a priority the shares take turns.
 */
export class FairGate {
  private readonly queues: Record<RequestPriority, FairQueue<Waiter>> = {
    interactive: new FairQueue(),
    background: new FairQueue(),
    bulk: new FairQueue(),
  };
  /** The pacer request standing for the next call of each priority, when one waits. */
  private readonly asking: Partial<Record<RequestPriority, AbortController>> = {};
  private readonly inFlight = new Map<string, number>();
  private readonly inFlightByTab = new Map<string, number>();
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly pacer: LeakyBucketPacer,
    private readonly limits: FairShareLimits,
    private readonly watch: GrantWatch,
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
    return (share, waiter) =>
      (this.inFlight.get(slotOf(priority, share)) ?? 0) < this.limits.maxInFlightPerShare &&
      (this.inFlightByTab.get(`${slotOf(priority, share)}\u0000${waiter.tab}`) ?? 0) <
        this.limits.maxInFlightPerTab;
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
    const slot = slotOf(priority, waiter.share);
    const tabSlot = `${slot}\u0000${waiter.tab}`;
    take(this.inFlight, slot);
    take(this.inFlightByTab, tabSlot);
    let settled = false;
    const shared: PacerTicket = {
      settle: (report) => {
        if (settled) return;
        settled = true;
        give(this.inFlight, slot);
        give(this.inFlightByTab, tabSlot);
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
