import type { KeyGovernor } from './governor/key-governor';
import type { UpstreamAnswer } from './upstream-call';

/** How long a page read ahead waits for the browser's call: a walk asks for it within ms. */
export const READ_AHEAD_TTL_MS = 5_000;
/** Pages held at once, at most (each up to a page of 250 rows). */
const MAX_HELD = 8;
/**
 * Room the key's bucket must have, in requests, for a page to be read ahead: a walk at the
 * bucket's pace (the bucket near full) reads nothing ahead, so read-ahead never costs a click
 * its room or draws a 429.
 */
export const READ_AHEAD_ROOM = 4;

interface Held {
  answer: Promise<UpstreamAnswer | undefined>;
  at: number;
}

/**
 * The next page of a cursor walk, asked of the upstream as soon as the page before it came back
 * (its `Link` rel="next"), while that page is still on its way to the browser and being parsed
 * there: the browser's own call for it, a moment later, is answered by the same upstream request
 * instead of waiting a whole round trip. Each page is still requested upstream once. A page is
 * read ahead only when the governor's model of the key's bucket has room, and is dropped unused
 * after `READ_AHEAD_TTL_MS` or on any write through the proxy (it may show what the write
 * changed).
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
   * Reads `url` ahead with `send` (which takes the governor's ticket itself), unless it is held
   * already, too many pages are, or `governor` leaves too little room.
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
