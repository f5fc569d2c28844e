import {
  LeakyBucketPacer,
  type BucketSnapshot,
  type PacerTicket,
  type RequestPriority,
} from '../../client/pacer';
import { FairGate } from './fair-gate';

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

/** `Retry-After` as seconds (a number of seconds or an HTTP date), or undefined. */
export function retryAfterSeconds(value: string | null, now: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds > 0 ? seconds : undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) || at <= now ? undefined : (at - now) / 1000;
}

interface KeyGovernorOptions {
  maxInFlight?: number;
  maxWaitingPerShare?: number;
  maxPauseSeconds?: number;
  now?: () => number;
}

/** One key's leaky bucket for every tab, sessions taking turns; a 429 holds all, then one probes. */
export class KeyGovernor {
  readonly pacer: LeakyBucketPacer;
  private readonly gate: FairGate;
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
    const maxInFlightPerShare = Math.max(1, Math.ceil(maxInFlight / 2));
    this.maxPauseSeconds = options.maxPauseSeconds ?? MAX_PAUSE_SECONDS;
    this.pacer = new LeakyBucketPacer({
      mode: apiKey.startsWith('svc_live_') ? 'live' : 'test',
      maxInFlight,
      priorityReserve: PRIORITY_RESERVE,
      countInFlight: true,
      probeAloneMs: PROBE_ALONE_MS,
      ...(options.now ? { now: options.now } : {}),
    });
    this.gate = new FairGate(
      this.pacer,
      {
        maxWaitingPerShare: options.maxWaitingPerShare ?? 64,
        maxInFlightPerShare,
        // All but one of the share's: a tab's hung calls always leave its person's other tabs one.
        maxInFlightPerTab: Math.max(1, maxInFlightPerShare - 1),
      },
      {
        mayGrant: () => !(this.probeDue && this.probe),
        granted: (ticket) => {
          if (this.probeDue && !this.probe) this.probe = ticket;
        },
      },
    );
  }

  /** A ticket after its turn; rejects during a long pause, and past the share's waiting bound. */
  acquire(
    priority: RequestPriority,
    signal?: AbortSignal,
    share = 'local',
    tab = '',
  ): Promise<PacerTicket> {
    const paused = this.paused();
    if (paused) return Promise.reject(new UpstreamPausedError(paused));
    return this.gate.acquire(priority, share, signal, tab);
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
    const seconds =
      status === 429 ? (retryAfterSeconds(headers.get('retry-after'), this.now()) ?? 1) : 0;
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
    this.gate.refuseAll(new UpstreamPausedError(this.longPause));
  }

  /** The shared bucket as every tab's meter shows it, with the answers seen and the 429s. */
  snapshot(): BucketSnapshot & { answered: number; rateLimited: number } {
    const bucket = this.pacer.snapshot();
    const paused = this.paused();
    const waitingBy = this.gate.waitingBy();
    return {
      ...bucket,
      waiting: Object.values(waitingBy).reduce((sum, count) => sum + count, 0),
      waitingBy,
      pausedUntil: paused ? Math.max(paused.until, bucket.pausedUntil) : bucket.pausedUntil,
      answered: this.answered,
      rateLimited: this.rateLimited,
    };
  }

  subscribe(listener: () => void): () => void {
    const stops = [this.pacer.subscribe(listener), this.gate.subscribe(listener)];
    return () => stops.forEach((stop) => stop());
  }
}

/** Reads the browser's priority header; anything else is a direct action. */
export function priorityOf(value: string | string[] | undefined): RequestPriority {
  const text = (Array.isArray(value) ? value[0] : value)?.trim().toLowerCase();
  return text === 'background' || text === 'bulk' ? text : 'interactive';
}
