import { abortError } from '../../client/abortable';
import { parseRetryAfter } from '../../client/api-error';
import { Listeners } from '../../client/listeners';
import {
  LeakyBucketPacer,
  type BucketSnapshot,
  type PacerTicket,
  type RequestPriority,
} from '../../client/pacer';
import { FairQueue } from './fair-queue';

// Room each priority leaves in the bucket, so a click finds room at once while a bulk job runs.
const PRIORITY_RESERVE: Record<RequestPriority, number> = {
  interactive: 0,
  background: 0.5,
  bulk: 1.5,
};

// The longest `Retry-After` held; past it calls are refused at once, not held to their deadline.
const MAX_HELD_RETRY_AFTER_SECONDS = 60;

// The longest pause kept, whatever the API asked: then one call probes (a bad header costs minutes).
export const MAX_PAUSE_SECONDS = 600;

// The first call after a start probes alone this long: it learns the level, a hung one holds little.
const PROBE_ALONE_MS = 2_000;

/** A pause longer than the governor holds calls for: until when (epoch ms), and what the API asked. */
export interface UpstreamPause {
  until: number;
  askedSeconds: number;
}

export class UpstreamPausedError extends Error {
  constructor(readonly pause: UpstreamPause) {
    super('The API asked for a pause longer than the governor holds calls');
    this.name = 'UpstreamPausedError';
  }
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

interface KeyGovernorOptions {
  maxInFlight?: number;
  maxWaitingPerShare?: number;
  maxPauseSeconds?: number;
  now?: () => number;
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

// One key's leaky bucket for every tab: calls wait by priority, shares (a session, a person, an
// address) taking turns, one pacer ticket asked per priority at once; a 429 holds all, one probes.
export class KeyGovernor {
  readonly pacer: LeakyBucketPacer;
  private readonly queues = Object.fromEntries(
    PRIORITIES.map((priority) => [priority, new FairQueue<Waiter>()]),
  ) as Record<RequestPriority, FairQueue<Waiter>>;
  // The pacer request standing for the next call of each priority, when one waits.
  private readonly asking: Partial<Record<RequestPriority, AbortController>> = {};
  // Calls in flight by share's slot and by tab's slot (the tab's key is the longer).
  private readonly inFlight = new Map<string, number>();
  private readonly listeners = new Listeners();
  private readonly limits: { waitingPerShare: number; perShare: number; perTab: number };
  private answered = 0;
  private lastOk: number | undefined;
  private rateLimited = 0;
  private longPause: UpstreamPause | undefined;
  // After a long pause: the next call goes alone, and the rest wait for its answer.
  private probeDue = false;
  private probe: PacerTicket | undefined;
  private readonly maxPauseSeconds: number;
  private readonly now: () => number;

  constructor(apiKey: string, options: KeyGovernorOptions = {}) {
    this.now = options.now ?? Date.now;
    const maxInFlight = options.maxInFlight ?? 8;
    // Half the slots: a share's hung calls always leave the other half to the rest.
    const perShare = Math.max(1, Math.ceil(maxInFlight / 2));
    // All but one of the share's: a tab's hung calls always leave its person's other tabs one.
    this.limits = {
      waitingPerShare: options.maxWaitingPerShare ?? 64,
      perShare,
      perTab: Math.max(1, perShare - 1),
    };
    this.maxPauseSeconds = options.maxPauseSeconds ?? MAX_PAUSE_SECONDS;
    this.pacer = new LeakyBucketPacer({
      mode: apiKey.startsWith('svc_live_') ? 'live' : 'test',
      maxInFlight,
      priorityReserve: PRIORITY_RESERVE,
      countInFlight: true,
      probeAloneMs: PROBE_ALONE_MS,
      ...(options.now ? { now: options.now } : {}),
    });
  }

  /** A ticket at its share's turn, a slot free for its tab; refused while paused or past the bound. */
  acquire(
    priority: RequestPriority,
    signal?: AbortSignal,
    share = 'local',
    tab = '',
  ): Promise<PacerTicket> {
    const paused = this.paused();
    if (paused) return Promise.reject(new UpstreamPausedError(paused));
    if (signal?.aborted) return Promise.reject(abortError(signal));
    const waiting = PRIORITIES.reduce((sum, p) => sum + this.queues[p].countOf(share), 0);
    if (waiting >= this.limits.waitingPerShare) {
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

  /** The pause the API asked for beyond the bound, while it lasts. */
  paused(): UpstreamPause | undefined {
    if (this.longPause && this.longPause.until <= this.now()) {
      this.longPause = undefined;
      this.probeDue = true;
    }
    return this.longPause;
  }

  lastAnsweredOk(): number | undefined {
    return this.lastOk;
  }

  /** Settles a ticket with what the upstream answered (`headers` null: no answer at all). */
  settle(ticket: PacerTicket, status: number, headers: Headers | null): void {
    const probe = ticket === this.probe;
    if (probe) this.probe = undefined;
    if (headers === null) {
      // A probe that got no answer proves nothing: the next call probes again.
      ticket.settle();
      return;
    }
    this.answered++;
    if (status >= 200 && status < 300) this.lastOk = this.now();
    const limit = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(headers.get('x-service-api-call-limit') ?? '');
    const mode = headers.get('x-service-api-mode');
    // A 429 without a wait of its own (none, zero, a date gone by) waits a second.
    const seconds = status === 429 ? parseRetryAfter(headers.get('retry-after')) || 1 : 0;
    // Before the ticket frees its place: no waiting call may slip out past a long pause.
    if (seconds > MAX_HELD_RETRY_AFTER_SECONDS) this.pauseLong(seconds);
    else if (probe) this.probeDue = false;
    ticket.settle({
      used: limit ? Number(limit[1]) : undefined,
      capacity: limit ? Number(limit[2]) : undefined,
      mode: mode === 'live' || mode === 'test' ? mode : undefined,
      status,
    });
    if (status === 429) {
      this.rateLimited++;
      this.pacer.pauseFor(Math.min(seconds, MAX_HELD_RETRY_AFTER_SECONDS));
    }
  }

  private pauseLong(seconds: number): void {
    const until = this.now() + Math.min(seconds, this.maxPauseSeconds) * 1000;
    if (this.longPause && this.longPause.until >= until) return;
    this.longPause = { until, askedSeconds: seconds };
    const error = new UpstreamPausedError(this.longPause);
    for (const priority of PRIORITIES) {
      for (const waiter of this.queues[priority].drain()) {
        waiter.detach();
        waiter.reject(error);
      }
    }
    this.refill();
  }

  /** The shared bucket as every tab's meter shows it, with the answers seen and the 429s. */
  snapshot(): BucketSnapshot & { answered: number; rateLimited: number } {
    const bucket = this.pacer.snapshot();
    const paused = this.paused();
    const sizes = PRIORITIES.map((priority) => [priority, this.queues[priority].size] as const);
    return {
      ...bucket,
      waiting: sizes.reduce((sum, [, size]) => sum + size, 0),
      waitingBy: Object.fromEntries(sizes) as Record<RequestPriority, number>,
      pausedUntil: paused ? Math.max(paused.until, bucket.pausedUntil) : bucket.pausedUntil,
      answered: this.answered,
      rateLimited: this.rateLimited,
    };
  }

  subscribe(listener: () => void): () => void {
    const stops = [this.pacer.subscribe(listener), this.listeners.subscribe(listener)];
    return () => stops.forEach((stop) => stop());
  }

  /** Asks the pacer for a ticket for each priority with a call that may go, and for no other. */
  private refill(): void {
    for (const priority of PRIORITIES) {
      const wanted = this.mayGrant() && this.queues[priority].hasNext(this.mayGo(priority));
      const asking = this.asking[priority];
      if (wanted && !asking) this.ask(priority);
      if (!wanted && asking) {
        delete this.asking[priority];
        asking.abort();
      }
    }
    this.listeners.tell();
  }

  /** No call may go while the probe after a long pause waits for its answer. */
  private mayGrant(): boolean {
    return !(this.probeDue && this.probe);
  }

  // A click is never held behind its share's bulk work, only its share's other clicks; a tab's
  // call waits behind its own tab's calls, never behind all of another tab's.
  private mayGo(priority: RequestPriority): (share: string, waiter: Waiter) => boolean {
    return (share, waiter) => {
      const [slot, tabSlot] = slotsOf(priority, share, waiter.tab);
      const count = (key: string) => this.inFlight.get(key) ?? 0;
      return count(slot) < this.limits.perShare && count(tabSlot) < this.limits.perTab;
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
    const waiter = this.mayGrant() ? this.queues[priority].next(this.mayGo(priority)) : undefined;
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
    if (this.probeDue && !this.probe) this.probe = shared;
    waiter.detach();
    waiter.resolve(shared);
    this.refill();
  }
}

/** Reads the browser's priority header; anything else is a direct action. */
export function priorityOf(value: string | string[] | undefined): RequestPriority {
  const text = (Array.isArray(value) ? value[0] : value)?.trim().toLowerCase();
  return text === 'background' || text === 'bulk' ? text : 'interactive';
}
