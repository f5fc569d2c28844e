import type { UpstreamPause } from './governor/key-governor';
import type { UpstreamAnswer } from './upstream-call';
import { errorEnvelope } from './error-envelope';

/** A wait as people say it: `24 h`, `90 min`, `45 s`. */
export function waitText(seconds: number): string {
  if (seconds >= 3600) {
    const hours = seconds / 3600;
    return `${Number.isInteger(hours) || hours >= 10 ? Math.round(hours) : hours.toFixed(1)} h`;
  }
  if (seconds >= 60) return `${Math.round(seconds / 60)} min`;
  return `${Math.ceil(seconds)} s`;
}

/** A moment as a clock reads it (`10:15 PM`), with its day when it is not today. */
export function clockText(at: number, now: number): string {
  const time = new Date(at).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });
  const sameDay = new Date(at).toDateString() === new Date(now).toDateString();
  if (sameDay) return time;
  const day = new Date(at).toLocaleDateString('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
  });
  return `${time} on ${day}`;
}

/**
 * During a pause longer than the governor holds: 503 `upstream_paused` at once, with `Retry-After`
 * and its end (bounded, see MAX_PAUSE_SECONDS), in the API's error envelope; nothing sent upstream.
 */
export function pausedAnswer(pause: UpstreamPause, now = Date.now()): UpstreamAnswer {
  const remaining = Math.max(1, Math.ceil((pause.until - now) / 1000));
  const body = errorEnvelope(
    'upstream_paused',
    `The API asked us to wait ${waitText(pause.askedSeconds)}; writes and reads are paused until ${clockText(pause.until, now)}.`,
    { retry_after_seconds: remaining, until: new Date(pause.until).toISOString() },
  );
  const headers = new Headers({
    'content-type': 'application/json; charset=utf-8',
    'retry-after': String(remaining),
  });
  return { status: 503, headers, body: Buffer.from(JSON.stringify(body)) };
}
