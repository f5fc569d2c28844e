import { errorEnvelope } from './error-envelope';
import type { UpstreamAnswer } from './upstream-call';

/** An answer of the server's own in the API's error envelope, as if the upstream had sent it. */
function ownAnswer(
  status: number,
  code: string,
  message: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): UpstreamAnswer {
  const body = errorEnvelope(code, message, extra);
  return {
    status,
    headers: new Headers({ 'content-type': 'application/json; charset=utf-8', ...headers }),
    body: Buffer.from(JSON.stringify(body)),
  };
}

/** A write may have been applied before the upstream went quiet: the seller must know to check. */
const outcomeNote = (method: string) =>
  method === 'GET' || method === 'HEAD'
    ? ''
    : ' The change may or may not have been made: check before sending it again (with the same Idempotency-Key).';

/** 504 `upstream_timeout`: the call was given up after the deadline, its slot freed. */
export function timeoutAnswer(method: string, afterMs: number): UpstreamAnswer {
  const seconds = Math.max(1, Math.round(afterMs / 1000));
  return ownAnswer(
    504,
    'upstream_timeout',
    `The API did not answer within ${seconds} s, so the call was given up.${outcomeNote(method)}`,
  );
}

/**
 * 504 `upstream_timeout` for a call whose turn in the governor did not come within its deadline
 * (calls ahead of it hung, or the bucket full): it was never sent, so a write may go again as is.
 */
export function turnTimeoutAnswer(afterMs: number): UpstreamAnswer {
  const seconds = Math.max(1, Math.round(afterMs / 1000));
  return ownAnswer(
    504,
    'upstream_timeout',
    `The call waited ${seconds} s for its turn at the API and was given up; nothing was sent.`,
    { sent: false },
  );
}

/** 502 `upstream_too_large`: the answer passed the cap and was not read further. */
export function tooLargeAnswer(method: string, maxBytes: number): UpstreamAnswer {
  return ownAnswer(
    502,
    'upstream_too_large',
    `The API's answer is larger than the ${maxBytes} bytes this server reads, so it was dropped.${outcomeNote(method)}`,
    { max_bytes: maxBytes },
  );
}

/** 429 `too_many_waiting`: this session already has its share of calls waiting; nothing was sent. */
export function tooManyWaitingAnswer(waiting: number, retryAfterSeconds: number): UpstreamAnswer {
  return ownAnswer(
    429,
    'too_many_waiting',
    `${waiting} calls of this session are already waiting for the API; nothing was sent. Try again in ${retryAfterSeconds} s.`,
    { retry_after_seconds: retryAfterSeconds },
    { 'retry-after': String(retryAfterSeconds) },
  );
}

/**
 * 502 `upstream_unreachable` for a write whose connection was closed before any of the answer came
 * back, and which had no `Idempotency-Key` to be sent again under: it went out, so its outcome is
 * unknown.
 */
export function connectionLostAnswer(method: string): UpstreamAnswer {
  return ownAnswer(
    502,
    'upstream_unreachable',
    `The API closed the connection before answering, so the call was not sent again.${outcomeNote(method)}`,
    { sent: true },
  );
}
