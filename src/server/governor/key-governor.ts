import {
  LeakyBucketPacer,
  type BucketSnapshot,
  type KeyMode,
  type PacerTicket,
  type RequestPriority,
} from '../../client/pacer';

/**
 * Room each priority leaves in the bucket for more urgent calls, so a click finds room at once
 * while a bulk job runs.
 */
export const PRIORITY_RESERVE: Record<RequestPriority, number> = {
  interactive: 0,
  background: 0.5,
  bulk: 1.5,
};

/**
 * The longest `Retry-After` held; past it the governor refuses calls at once (`UpstreamPause`)
 * rather than hold every tab's calls to their deadline.
 */
export const MAX_HELD_RETRY_AFTER_SECONDS = 60;

/** A pause longer than the governor holds calls for: until when, and what the API asked. */
export interface UpstreamPause {
  /** Epoch ms when calls may go again. */
  until: number;
  /** The `Retry-After` the API sent, in seconds. */
  askedSeconds: number;
}

/** Thrown by `acquire` while the API has asked for a pause longer than the bound. */
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

/** What the governor says about the shared bucket (the meter of every tab shows this). */
export interface GovernorSnapshot extends BucketSnapshot {
  /** Upstream answers seen, and how many of them were 429s. */
  answered: number;
  rateLimited: number;
}

/**
 * One model of one key's leaky bucket for every tab: each proxied call takes a ticket here, by
 * priority. Upstream answers correct the level, so another client of the key slows it down; a 429's
 * `Retry-After` holds every call.
 */
export class KeyGovernor {
  readonly pacer: LeakyBucketPacer;
  private answered = 0;
  private rateLimited = 0;
  private longPause: UpstreamPause | undefined;
  /** The calls waiting for a ticket: refused at once when a long pause starts. */
  private readonly waitingCalls = new Set<AbortController>();
  private readonly now: () => number;

  constructor(apiKey: string, options: { maxInFlight?: number; now?: () => number } = {}) {
    this.now = options.now ?? Date.now;
    this.pacer = new LeakyBucketPacer({
      mode: apiKey.startsWith('svc_live_') ? 'live' : 'test',
      maxInFlight: options.maxInFlight ?? 8,
      priorityReserve: PRIORITY_RESERVE,
      countInFlight: true,
      ...(options.now ? { now: options.now } : {}),
    });
  }

  /** A ticket for one call after its turn; rejects with UpstreamPausedError during a long pause. */
  async acquire(priority: RequestPriority, signal?: AbortSignal): Promise<PacerTicket> {
    const paused = this.paused();
    if (paused) throw new UpstreamPausedError(paused);
    const waiting = new AbortController();
    const onAbort = () => waiting.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();
    this.waitingCalls.add(waiting);
    try {
      return await this.pacer.acquire(waiting.signal, priority);
    } catch (error) {
      const reason: unknown = waiting.signal.reason;
      throw reason instanceof UpstreamPausedError ? reason : error;
    } finally {
      this.waitingCalls.delete(waiting);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** The pause the API asked for beyond the bound, while it lasts. */
  paused(): UpstreamPause | undefined {
    if (this.longPause && this.longPause.until <= this.now()) this.longPause = undefined;
    return this.longPause;
  }

  /** Settles a ticket with what the upstream answered (`headers` null: no answer at all). */
  settle(ticket: PacerTicket, status: number, headers: Headers | null): void {
    if (headers === null) {
      ticket.settle();
      return;
    }
    this.answered++;
    const limit = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(headers.get('x-service-api-call-limit') ?? '');
    const modeHeader = headers.get('x-service-api-mode');
    const mode: KeyMode | undefined =
      modeHeader === 'live' || modeHeader === 'test' ? modeHeader : undefined;
    const seconds =
      status === 429 ? (retryAfterSeconds(headers.get('retry-after'), this.now()) ?? 1) : 0;
    // Before the ticket frees its place: no waiting call may slip out past a long pause.
    if (seconds > MAX_HELD_RETRY_AFTER_SECONDS) this.pauseLong(seconds);
    ticket.settle({
      used: limit ? Number(limit[1]) : undefined,
      capacity: limit ? Number(limit[2]) : undefined,
      mode,
      status,
    });
    if (status === 429) {
      this.rateLimited++;
      this.pacer.pauseFor(Math.min(seconds, MAX_HELD_RETRY_AFTER_SECONDS));
    }
  }

  private pauseLong(seconds: number): void {
    const until = this.now() + seconds * 1000;
    if (this.longPause && this.longPause.until >= until) return;
    this.longPause = { until, askedSeconds: seconds };
    for (const waiting of this.waitingCalls) waiting.abort(new UpstreamPausedError(this.longPause));
  }

  snapshot(): GovernorSnapshot {
    const bucket = this.pacer.snapshot();
    const paused = this.paused();
    return {
      ...bucket,
      pausedUntil: paused ? Math.max(paused.until, bucket.pausedUntil) : bucket.pausedUntil,
      answered: this.answered,
      rateLimited: this.rateLimited,
    };
  }

  subscribe(listener: () => void): () => void {
    return this.pacer.subscribe(listener);
  }
}

/** Reads the browser's priority header; anything else is a direct action. */
export function priorityOf(value: string | string[] | undefined): RequestPriority {
  const text = (Array.isArray(value) ? value[0] : value)?.trim().toLowerCase();
  return text === 'background' || text === 'bulk' ? text : 'interactive';
}
