import type { KeyGovernor } from './governor/key-governor';
import type { UpstreamAnswer } from './upstream-call';

/** How long a page read ahead waits for the browser's call: a walk asks for it within ms. */
export const READ_AHEAD_TTL_MS = 5_000;
/** Pages held at once, at most (each up to a page of 250 rows). */
const MAX_HELD = 8;
/**
 * Room the bucket must have for a read-ahead, so it never costs a click its room or draws a 429.
 */
export const READ_AHEAD_ROOM = 4;

interface Held {
  answer: Promise<UpstreamAnswer | undefined>;
  at: number;
}

/**
 * A walk's next page asked upstream once the page before came back, so the browser's call a moment
 * later is answered by the same request. Only with room in the bucket; dropped unused after
 * `READ_AHEAD_TTL_MS` or on any write (it may show what the write changed).
 */
export class ReadAhead {
  private readonly held = new Map<string, Held>();
  private readonly ttlMs: number;
  private readonly now: () => number;
  /** Pages read ahead, and how many of them a browser call took. */
  readonly counts = { sent: 0, taken: 0 };

  constructor(options: { ttlMs?: number; now?: () => number } = {}) {
    this.ttlMs = options.ttlMs ?? READ_AHEAD_TTL_MS;
    this.now = options.now ?? Date.now;
  }

  /** The page read ahead for this upstream URL and `Accept`, taken once; undefined if none. */
  take(url: string, accept: string | undefined): Promise<UpstreamAnswer | undefined> | undefined {
    this.dropExpired();
    const key = keyOf(url, accept);
    const held = this.held.get(key);
    if (!held) return undefined;
    this.held.delete(key);
    this.counts.taken++;
    return held.answer;
  }

  /**
   * Reads `url` ahead, unless held already, too many are, or the governor leaves too little room.
   */
  offer(
    url: string,
    accept: string | undefined,
    governor: KeyGovernor,
    send: () => Promise<UpstreamAnswer | undefined>,
  ): void {
    this.dropExpired();
    const key = keyOf(url, accept);
    if (this.held.has(key) || this.held.size >= MAX_HELD || !hasRoom(governor)) return;
    const answer = send().catch(() => undefined);
    this.held.set(key, { answer, at: this.now() });
    this.counts.sent++;
  }

  /** Drops every held page: a write may have changed what they show. */
  clear(): void {
    this.held.clear();
  }

  private dropExpired(): void {
    const oldest = this.now() - this.ttlMs;
    for (const [key, held] of this.held) if (held.at < oldest) this.held.delete(key);
  }
}

const keyOf = (url: string, accept: string | undefined) => `${accept ?? ''} ${url}`;

/** Whether the key's bucket, as the governor models it, has room for a call nobody asked for yet. */
function hasRoom(governor: KeyGovernor): boolean {
  const bucket = governor.snapshot();
  if (bucket.pausedUntil > 0 || bucket.waiting > 0) return false;
  // `level` counts every call sent, answered or not.
  return bucket.capacity - bucket.level >= READ_AHEAD_ROOM;
}
