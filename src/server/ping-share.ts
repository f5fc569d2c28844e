import { asciiJsonText } from '../shared/ascii-json';
import { isRecord } from '../shared/is-record';
import { jsonOfBytes } from './bounded-json';

// A ping is given again for a minute after it, or after any call of the key answered well (which
// shows what a ping shows: key, version, limiter, seller), never past MAX_SHARED_MS.
export const PING_SHARED_MS = 60_000;
const MAX_SHARED_MS = 15 * 60_000;

const PING_PATH = /^\/\d{4}-\d{2}\/ping(?:\.json)?$/;

export function isPing(url: string): boolean {
  const parsed = new URL(url);
  return PING_PATH.test(parsed.pathname) && parsed.search === '';
}

/** The key's last `/ping` answer given again while fresh, its `server_time` moved on by its age. */
export class PingShare {
  private last: { at: number; body: Record<string, unknown> } | undefined;

  constructor(
    private readonly now: () => number = Date.now,
    // When the marketplace last answered any call of this key with a 2xx (the governor's).
    private readonly lastAnsweredOk: () => number | undefined = () => undefined,
  ) {}

  /** The answer to a ping now, from the last one while it is fresh; its age in seconds. */
  answer(): { body: Buffer; ageSeconds: number } | undefined {
    const last = this.last;
    const now = this.now();
    const age = last ? now - last.at : Infinity;
    const proven = Math.max(last?.at ?? -Infinity, this.lastAnsweredOk() ?? -Infinity);
    if (!last || age < 0 || age > MAX_SHARED_MS || now - proven > PING_SHARED_MS) return undefined;
    const ping = last.body.ping as Record<string, unknown>;
    const then = typeof ping.server_time === 'string' ? Date.parse(ping.server_time) : NaN;
    const moved = Number.isNaN(then)
      ? ping
      : { ...ping, server_time: new Date(then + age).toISOString() };
    return {
      body: Buffer.from(asciiJsonText({ ...last.body, ping: moved }), 'latin1'),
      ageSeconds: Math.floor(age / 1000),
    };
  }

  /** A ping the marketplace answered: a 200 is given again; anything else ends the last one. */
  note(status: number, body: Buffer): void {
    this.last = undefined;
    if (status !== 200) return;
    // An answer that is not JSON is not given again.
    const parsed = jsonOfBytes(body);
    if (isRecord(parsed) && isRecord(parsed.ping) && parsed.ping.ok === true) {
      this.last = { at: this.now(), body: parsed };
    }
  }

  /** The key's standing may have changed (a refusal, a pause): the next ping asks again. */
  forget(): void {
    this.last = undefined;
  }
}
