import {
  LeakyBucketPacer,
  type BucketSnapshot,
  type KeyMode,
  type PacerTicket,
  type RequestPriority,
} from '../../client/pacer';

/**
 * Room each priority leaves in the bucket for more urgent calls, in requests. A bulk job keeps
 * the bucket a request and a half below full (the model's own 0.1 of slack aside), so a click
 * finds room at once; 38 of a fresh live key's 40 still go in the first burst.
 */
export const PRIORITY_RESERVE: Record<RequestPriority, number> = {
  interactive: 0,
  background: 0.5,
  bulk: 1.5,
};

/** What the governor says about the shared bucket (the meter of every tab shows this). */
export interface GovernorSnapshot extends BucketSnapshot {
  /** Upstream answers seen, and how many of them were 429s. */
  answered: number;
  rateLimited: number;
}

/**
 * One model of one key's leaky bucket, shared by every tab: every API call the proxy forwards
 * takes a ticket here first. The model (`LeakyBucketPacer`) adds one per call sent, drains at the
 * key's rate, and is corrected by every upstream answer's `X-Service-Api-Call-Limit`, so another
 * client of the same key shows up as a higher `used` within one answer and the governor slows
 * down; a 429's `Retry-After` holds every call until it has passed. Waiting calls go out by
 * priority (direct action, then background refresh, then bulk write), and bulk writes leave
 * `PRIORITY_RESERVE.bulk` requests of room, so a click never waits behind a bulk job.
 */
export class KeyGovernor {
  readonly pacer: LeakyBucketPacer;
  private answered = 0;
  private rateLimited = 0;

  constructor(apiKey: string, options: { maxInFlight?: number; now?: () => number } = {}) {
    this.pacer = new LeakyBucketPacer({
      mode: apiKey.startsWith('svc_live_') ? 'live' : 'test',
      maxInFlight: options.maxInFlight ?? 8,
      priorityReserve: PRIORITY_RESERVE,
      countInFlight: true,
      ...(options.now ? { now: options.now } : {}),
    });
  }

  acquire(priority: RequestPriority, signal?: AbortSignal): Promise<PacerTicket> {
    return this.pacer.acquire(signal, priority);
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
    ticket.settle({
      used: limit ? Number(limit[1]) : undefined,
      capacity: limit ? Number(limit[2]) : undefined,
      mode,
      status,
    });
    if (status === 429) {
      this.rateLimited++;
      const seconds = Number(headers.get('retry-after'));
      this.pacer.pauseFor(Number.isFinite(seconds) && seconds > 0 ? seconds : 1);
    }
  }

  snapshot(): GovernorSnapshot {
    return { ...this.pacer.snapshot(), answered: this.answered, rateLimited: this.rateLimited };
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
