import { abortError } from './abortable';
import { Listeners } from './listeners';

/** The spec's buckets: live 40 refilling 2 per second, test 20 refilling 1 per second. */
export const BUCKET_RATES = {
  live: { capacity: 40, perSecond: 2 },
  test: { capacity: 20, perSecond: 1 },
} as const;

export type KeyMode = 'live' | 'test';

/** Who asks, most urgent first; each fills the bucket only up to its reserve. */
export type RequestPriority = 'interactive' | 'background' | 'bulk';
const RANK: Record<RequestPriority, number> = { interactive: 0, background: 1, bulk: 2 };

/** What the pacer believes about the credential's bucket right now. */
export interface BucketSnapshot {
  mode: KeyMode;
  capacity: number;
  perSecond: number;
  /** Estimated level now (drained to the current instant), never below what the server said. */
  level: number;
  /** The last `used` the server reported, and when (epoch ms). */
  lastReportedUsed: number | undefined;
  /** Requests sent and not yet answered. */
  inFlight: number;
  /** Requests waiting for room in the bucket or for a free slot. */
  waiting: number;
  /** The same, by priority. */
  waitingBy: Record<RequestPriority, number>;
  /** Epoch ms until which requests are held after a 429, or 0. */
  pausedUntil: number;
}

export interface PacerOptions {
  /** Mode guessed from the key's prefix until a response names it (default `test`: the smaller). */
  mode?: KeyMode;
  /** Most requests in flight at once (default 4). */
  maxInFlight?: number;
  /** Room kept free in the bucket, in requests, for callers outside this client (default 0). */
  reserve?: number;
  /** Room each priority leaves free for more urgent ones, on top of `reserve` (default none). */
  priorityReserve?: Partial<Record<RequestPriority, number>>;
  /** Count requests in flight on top of each reported level (the server's governor). */
  countInFlight?: boolean;
  /** How long the first request probes alone (default: until answered). */
  probeAloneMs?: number;
  /** Whether to pace at all (false: a naive client, for comparison only). */
  enabled?: boolean;
  now?: () => number;
}

/** A granted slot: settle it exactly once with what the response said (or nothing on failure). */
export interface PacerTicket {
  settle(report?: { used?: number; capacity?: number; mode?: KeyMode; status?: number }): void;
}

interface Waiter {
  priority: RequestPriority;
  resolve(ticket: PacerTicket): void;
  reject(error: unknown): void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

/** A model of one key's leaky bucket: requests wait here for a ticket instead of a 429. */
export class LeakyBucketPacer {
  private mode: KeyMode;
  private capacity: number;
  private perSecond: number;
  private level = 0;
  private levelAt: number;
  private calibrated = false;
  private inFlight = 0;
  private sentCounter = 0;
  private pausedUntil = 0;
  private lastReportedUsed: number | undefined;
  /** The slowest recent way to the server and back (ms), fading: what slack the level needs. */
  private slowestMs = 0;
  /** When the request probing alone (before the first answer) was sent. */
  private probeSentAt = 0;
  private readonly probeAloneMs: number;
  private readonly queue: Waiter[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly listeners = new Listeners();
  private readonly maxInFlight: number;
  private readonly reserve: number;
  private readonly priorityReserve: Record<RequestPriority, number>;
  private readonly countInFlight: boolean;
  /** False for a naive client: no waiting for room, only the bound on requests in flight. */
  readonly enabled: boolean;
  private readonly now: () => number;

  constructor(options: PacerOptions = {}) {
    this.mode = options.mode ?? 'test';
    this.capacity = BUCKET_RATES[this.mode].capacity;
    this.perSecond = BUCKET_RATES[this.mode].perSecond;
    this.maxInFlight = Math.max(1, options.maxInFlight ?? 4);
    this.reserve = Math.max(0, options.reserve ?? 0);
    this.countInFlight = options.countInFlight ?? false;
    this.priorityReserve = {
      interactive: Math.max(0, options.priorityReserve?.interactive ?? 0),
      background: Math.max(0, options.priorityReserve?.background ?? 0),
      bulk: Math.max(0, options.priorityReserve?.bulk ?? 0),
    };
    this.probeAloneMs = options.probeAloneMs ?? Infinity;
    this.enabled = options.enabled ?? true;
    this.now = options.now ?? (() => Date.now());
    this.levelAt = this.now();
  }

  /** Waits for room, then returns the ticket for one request (`interactive` by default). */
  acquire(signal?: AbortSignal, priority: RequestPriority = 'interactive'): Promise<PacerTicket> {
    if (signal?.aborted) return Promise.reject(abortError(signal));
    return new Promise<PacerTicket>((resolve, reject) => {
      const waiter: Waiter = { priority, resolve, reject, signal, onAbort: undefined };
      if (signal) {
        waiter.onAbort = () => {
          const index = this.queue.indexOf(waiter);
          if (index >= 0) this.queue.splice(index, 1);
          reject(abortError(signal));
          this.changed();
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      // After every waiter of the same or a higher priority, before every lower one.
      const after = this.queue.findIndex((other) => RANK[other.priority] > RANK[priority]);
      if (after < 0) this.queue.push(waiter);
      else this.queue.splice(after, 0, waiter);
      this.pump();
      this.changed();
    });
  }

  /** Holds every request until `seconds` from now (a 429's Retry-After) and marks the bucket full. */
  pauseFor(seconds: number): void {
    const until = this.now() + seconds * 1000;
    if (until > this.pausedUntil) this.pausedUntil = until;
    this.drain();
    this.level = Math.max(this.level, this.capacity);
    this.schedule();
    this.changed();
  }

  snapshot(): BucketSnapshot {
    this.drain();
    const snapshot: BucketSnapshot = {
      mode: this.mode,
      capacity: this.capacity,
      perSecond: this.perSecond,
      level: this.level,
      lastReportedUsed: this.lastReportedUsed,
      inFlight: this.inFlight,
      waiting: this.queue.length,
      waitingBy: { interactive: 0, background: 0, bulk: 0 },
      pausedUntil: this.pausedUntil > this.now() ? this.pausedUntil : 0,
    };
    for (const waiter of this.queue) snapshot.waitingBy[waiter.priority]++;
    return snapshot;
  }

  /** Called on every change of the state (a grant, a response, a pause). */
  readonly subscribe = this.listeners.subscribe;

  private changed(): void {
    this.listeners.tell();
  }

  private drain(): void {
    const now = this.now();
    const elapsed = Math.max(0, now - this.levelAt) / 1000;
    this.level = Math.max(0, this.level - elapsed * this.perSecond);
    this.levelAt = now;
  }

  /** Milliseconds until the head of the queue may go (0 now, Infinity: wait for a settle). */
  private delay(): number {
    const head = this.queue[0];
    if (this.inFlight >= this.maxInFlight) return Infinity;
    if (!this.enabled) return 0;
    const now = this.now();
    if (!this.calibrated && this.inFlight > 0) {
      const probing = this.probeSentAt + this.probeAloneMs - now;
      if (probing > 0) return probing;
    }
    if (this.pausedUntil > now) return this.pausedUntil - now;
    this.drain();
    // Requests sent earlier may reach the server later than this one (up to a round trip): the
    // server drained that much less than the model, so that much room is kept (a tenth at least).
    const slack = Math.min(1, Math.max(0.1, (this.slowestMs / 1000) * this.perSecond));
    const room =
      this.capacity - this.reserve - (head ? this.priorityReserve[head.priority] : 0) - slack;
    const over = this.level + 1 - room;
    if (over <= 1e-9) return 0;
    return Math.ceil((over / this.perSecond) * 1000);
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const wait = this.delay();
      if (wait > 0) {
        if (Number.isFinite(wait)) this.schedule(wait);
        return;
      }
      const waiter = this.queue.shift()!;
      if (waiter.signal && waiter.onAbort)
        waiter.signal.removeEventListener('abort', waiter.onAbort);
      waiter.resolve(this.grant());
    }
  }

  private schedule(ms?: number): void {
    const wait = ms ?? this.delay();
    if (!Number.isFinite(wait) || this.queue.length === 0) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.pump();
        this.changed();
      },
      Math.max(1, wait),
    );
  }

  private grant(): PacerTicket {
    this.drain();
    this.level += 1;
    // Requests still in flight may be charged after this one: they bound the level from above.
    const inFlightBefore = this.inFlight;
    if (!this.calibrated && this.inFlight === 0) this.probeSentAt = this.now();
    this.inFlight += 1;
    const sentIndex = ++this.sentCounter;
    const sentAt = this.now();
    let settled = false;
    this.changed();
    return {
      settle: (report) => {
        if (settled) return;
        settled = true;
        this.inFlight -= 1;
        this.slowestMs = Math.max(this.slowestMs * 0.9, this.now() - sentAt);
        if (report) this.observe(report, sentIndex, sentAt, inFlightBefore);
        this.pump();
        this.changed();
      },
    };
  }

  private observe(
    report: { used?: number; capacity?: number; mode?: KeyMode; status?: number },
    sentIndex: number,
    sentAt: number,
    inFlightBefore: number,
  ): void {
    if (report.mode && report.mode !== this.mode) {
      this.mode = report.mode;
      this.perSecond = BUCKET_RATES[report.mode].perSecond;
      this.capacity = BUCKET_RATES[report.mode].capacity;
    }
    const { capacity } = report;
    if (capacity !== undefined && Number.isFinite(capacity) && capacity > 0)
      this.capacity = capacity;
    if (report.used === undefined) return;
    // No bucket holds more than its capacity: a `used` past it is read as a full bucket.
    const used = Math.min(report.used, this.capacity);
    this.calibrated = true;
    this.lastReportedUsed = used;
    this.drain();
    const now = this.now();
    // The reported `used` is a ceiling at charge time; later requests (and, with `countInFlight`,
    // those still in flight) may have been charged after it.
    const lower =
      used - ((now - sentAt) / 1000) * this.perSecond + (this.countInFlight ? this.inFlight : 0);
    const upper = used + (this.sentCounter - sentIndex) + inFlightBefore;
    if (report.status === 429) {
      this.level = Math.max(this.level, this.capacity);
      return;
    }
    this.level = Math.min(Math.max(this.level, lower), upper);
  }
}
