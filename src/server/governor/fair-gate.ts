import { abortError } from '../../client/abortable';
import type { LeakyBucketPacer, PacerTicket, RequestPriority } from '../../client/pacer';
import { FairQueue } from './fair-queue';

/** How much of the governor one share (a session, or a client address) may hold. */
export interface FairShareLimits {
  /** Calls of one share waiting at once; past it a call is refused (TooManyWaitingError). */
  maxWaitingPerShare: number;
  /** Calls of one share in flight at once, so hung calls of one share leave room for others. */
  maxInFlightPerShare: number;
  /**
   * Calls of one tab of a share in flight at once, below the share's bound: hung calls of one tab
   * leave its person's other tabs a slot, and wait behind each other, not in front of those tabs.
   */
  maxInFlightPerTab: number;
}

/** Thrown by `acquire` when the share already has its bound of calls waiting. */
export class TooManyWaitingError extends Error {
  constructor(
    readonly waiting: number,
    readonly retryAfterSeconds: number,
  ) {
    super(`${waiting} calls of this share are already waiting`);
    this.name = 'TooManyWaitingError';
  }
}

/** What decides, at the instant of a grant, whether any call may go and which one went. */
export interface GrantWatch {
  /** False: hold every call for now (a probe after a long pause is out). */
  mayGrant(): boolean;
  /** Told the ticket about to be handed out, before anything else can be granted. */
  granted(ticket: PacerTicket): void;
}

interface Waiter {
  share: string;
  /** The browser tab the call came from within its share ('' when it names none). */
  tab: string;
  resolve(ticket: PacerTicket): void;
  reject(error: unknown): void;
  detach(): void;
}

const PRIORITIES: readonly RequestPriority[] = ['interactive', 'background', 'bulk'];

/** One more call in flight on `slot`. */
const take = (counts: Map<string, number>, slot: string): void => {
  counts.set(slot, (counts.get(slot) ?? 0) + 1);
};

/** One call fewer in flight on `slot` (the entry goes at zero). */
const give = (counts: Map<string, number>, slot: string): void => {
  const left = (counts.get(slot) ?? 1) - 1;
  if (left > 0) counts.set(slot, left);
  else counts.delete(slot);
};

/** The in-flight count a call takes: its share's clicks, or its share's background and bulk work. */
const slotOf = (priority: RequestPriority, share: string): string =>
  `${priority === 'interactive' ? 'click' : 'work'}\u0000${share}`;

/** The same count for one tab of the share. */
const tabSlotOf = (priority: RequestPriority, share: string, tab: string): string =>
  `${slotOf(priority, share)}\u0000${tab}`;

/**
 * The governor's waiting room: calls wait here by priority and by share, and the pacer is asked
 * for one ticket per priority at a time; whoever's turn it is in the round when the ticket comes
 * gets it. So the pacer still orders the priorities and paces the bucket, and within a priority
 * the shares take turns.
 */
export class FairGate {
  private readonly queues: Record<RequestPriority, FairQueue<Waiter>> = {
    interactive: new FairQueue(),
    background: new FairQueue(),
    bulk: new FairQueue(),
  };
  /** The pacer request standing for the next call of each priority, when one waits. */
  private readonly asking: Partial<Record<RequestPriority, AbortController>> = {};
  /** In flight by share and class: a share's clicks and its background work have caps apart. */
  private readonly inFlight = new Map<string, number>();
  /** The same by tab of a share (`tabSlotOf`). */
  private readonly inFlightByTab = new Map<string, number>();
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly pacer: LeakyBucketPacer,
    private readonly limits: FairShareLimits,
    private readonly watch: GrantWatch,
  ) {}

  /**
   * A ticket once it is this share's turn and its tab (within the share) has a slot; rejects at
   * once past the share's waiting bound.
   */
  acquire(
    priority: RequestPriority,
    share: string,
    signal?: AbortSignal,
    tab = '',
  ): Promise<PacerTicket> {
    if (signal?.aborted) return Promise.reject(abortError(signal));
    const waiting = this.waitingOf(share);
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
      const waiter: Waiter = {
        share,
        tab,
        resolve,
        reject,
        detach: () => signal?.removeEventListener('abort', onAbort),
      };
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
    this.changed();
  }

  waitingBy(): Record<RequestPriority, number> {
    return {
      interactive: this.queues.interactive.size,
      background: this.queues.background.size,
      bulk: this.queues.bulk.size,
    };
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Whether a call of `priority` may go: a click is never held behind its own tab's bulk writes or
   * walks (a seller's click goes first), only behind its share's other clicks, and a tab's call
   * behind its own tab's calls, never behind all of another tab's.
   */
  private mayGo(priority: RequestPriority): (share: string, waiter: Waiter) => boolean {
    return (share, waiter) =>
      (this.inFlight.get(slotOf(priority, share)) ?? 0) < this.limits.maxInFlightPerShare &&
      (this.inFlightByTab.get(tabSlotOf(priority, share, waiter.tab)) ?? 0) <
        this.limits.maxInFlightPerTab;
  }

  private waitingOf(share: string): number {
    return PRIORITIES.reduce((sum, priority) => sum + this.queues[priority].countOf(share), 0);
  }

  private ask(priority: RequestPriority): void {
    const asking = new AbortController();
    this.asking[priority] = asking;
    this.pacer.acquire(asking.signal, priority).then(
      (ticket) => {
        if (this.asking[priority] === asking) delete this.asking[priority];
        this.hand(priority, ticket);
      },
      () => {
        // Taken back by refill: nobody of this priority could go any more.
        if (this.asking[priority] === asking) delete this.asking[priority];
      },
    );
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
    const tabSlot = tabSlotOf(priority, waiter.share, waiter.tab);
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

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}
