import { createClient, type SlabdeskClient } from '../client';
import { anySignal } from '../client/abortable';
import type { PacerTicket, RequestPriority } from '../client/pacer';
import type { RetryPolicy } from '../client/transport-types';
import { errorEnvelope } from './error-envelope';
import {
  TooManyWaitingError,
  UpstreamPausedError,
  type KeyGovernor,
  type UpstreamPause,
} from './governor/key-governor';
import {
  callUpstream,
  DEFAULT_UPSTREAM_LIMITS,
  UpstreamError,
  type CallInit,
  type UpstreamAnswer,
  type Upstream,
  type UpstreamLimits,
} from './upstream-call';
import { clockText, waitText } from './upstream-pause';

/** Whose turn a call takes in the governor (`tab`: the browser tab within the share). */
interface CallTerms {
  share?: string | undefined;
  tab?: string | undefined;
  limits?: Partial<UpstreamLimits> | undefined;
}

/** One call after its turn (at most its deadline): the answer, ours in the envelope, or why none. */
export async function governedUpstreamCall(
  governor: KeyGovernor | undefined,
  priority: RequestPriority,
  signal: AbortSignal | undefined,
  url: string,
  init: CallInit,
  terms: CallTerms = {},
): Promise<UpstreamAnswer | 'gone' | 'unreachable'> {
  let ticket: PacerTicket | undefined;
  const waitMs = terms.limits?.headersMs ?? DEFAULT_UPSTREAM_LIMITS.headersMs;
  const turnDue = AbortSignal.timeout(waitMs);
  try {
    const waiting = anySignal([signal, turnDue]);
    ticket = await governor?.acquire(priority, waiting, terms.share, terms.tab);
  } catch (error) {
    if (error instanceof UpstreamPausedError) return pausedAnswer(error.pause);
    if (error instanceof TooManyWaitingError) {
      const wait = error.retryAfterSeconds;
      const message = `${error.waiting} calls of this session are already waiting for the API; nothing was sent. Try again in ${wait} s.`;
      return ownAnswer(429, 'too_many_waiting', message, { retry_after_seconds: wait }, wait);
    }
    if (!turnDue.aborted || signal?.aborted) return 'gone';
    const message = `The call waited ${seconds(waitMs)} s for its turn at the API and was given up; nothing was sent.`;
    return ownAnswer(504, 'upstream_timeout', message, { sent: false });
  }
  try {
    const answer = await callUpstream(url, init, terms.limits);
    if (ticket) governor?.settle(ticket, answer.status, answer.headers);
    // The 429 that asked for a long pause is told as the pause it started.
    const paused = answer.status === 429 ? governor?.paused() : undefined;
    return paused ? pausedAnswer(paused) : answer;
  } catch (error) {
    if (ticket) governor?.settle(ticket, 0, null);
    // A write may have been applied before the upstream went quiet: the seller must know to check.
    const read = init.method === 'GET' || init.method === 'HEAD';
    const check = read
      ? ''
      : ' The change may or may not have been made: check before sending it again (with the same Idempotency-Key).';
    if (!(error instanceof UpstreamError) || (error.kind === 'lost' && read)) return 'unreachable';
    if (error.kind === 'timeout') {
      const message = `The API did not answer within ${seconds(error.limit)} s, so the call was given up.${check}`;
      return ownAnswer(504, 'upstream_timeout', message);
    }
    if (error.kind === 'too_large') {
      const message = `The API's answer is larger than the ${error.limit} bytes this server reads, so it was dropped.${check}`;
      return ownAnswer(502, 'upstream_too_large', message, { max_bytes: error.limit });
    }
    if (error.kind === 'unreadable') {
      const message = `The API answered with status ${error.limit}, which no API answer has, so it was dropped.${check}`;
      return ownAnswer(502, 'upstream_unreachable', message, { sent: true });
    }
    const message = `The API closed the connection before answering, so the call was not sent again.${check}`;
    return ownAnswer(502, 'upstream_unreachable', message, { sent: true });
  }
}

const seconds = (ms: number) => Math.max(1, Math.round(ms / 1000));

/** An answer of the server's own in the API's error envelope, as if the upstream had sent it. */
function ownAnswer(
  status: number,
  code: string,
  message: string,
  extra: Record<string, unknown> = {},
  retryAfter?: number,
): UpstreamAnswer {
  const headers = new Headers({ 'content-type': 'application/json; charset=utf-8' });
  if (retryAfter !== undefined) headers.set('retry-after', String(retryAfter));
  const body = Buffer.from(JSON.stringify(errorEnvelope(code, message, extra)));
  return { status, headers, body };
}

/** A pause longer than the governor holds: 503 `upstream_paused` at once, nothing sent upstream. */
function pausedAnswer(pause: UpstreamPause, now = Date.now()): UpstreamAnswer {
  const remaining = Math.max(1, Math.ceil((pause.until - now) / 1000));
  const message = `The API asked us to wait ${waitText(pause.askedSeconds)}; writes and reads are paused until ${clockText(pause.until, now)}.`;
  const extra = { retry_after_seconds: remaining, until: new Date(pause.until).toISOString() };
  return ownAnswer(503, 'upstream_paused', message, extra, remaining);
}

// The Fetch standard refuses a body with these.
const NO_BODY = new Set([101, 204, 205, 304]);

/** The one typed API client on the server, paced by the governor (its own pacer off). */
export function serverClient(
  upstream: Upstream,
  governor: KeyGovernor | undefined,
  terms: { priority: RequestPriority; share: string; retry?: Partial<RetryPolicy> },
): SlabdeskClient {
  const governedFetch: typeof fetch = async (input, init = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const headers = Object.fromEntries(new Headers(init.headers));
    const body =
      typeof init.body === 'string' ? new TextEncoder().encode(init.body).buffer : undefined;
    const signal = init.signal ?? undefined;
    const call = { method: init.method ?? 'GET', headers, body };
    const answer = await governedUpstreamCall(governor, terms.priority, signal, url, call, {
      share: terms.share,
    });
    if (answer === 'gone') {
      throw signal?.reason instanceof Error
        ? signal.reason
        : new DOMException('Taken back while waiting for a turn', 'AbortError');
    }
    if (answer === 'unreachable') throw new TypeError('The upstream could not be reached');
    return new Response(NO_BODY.has(answer.status) ? null : new Uint8Array(answer.body), {
      status: answer.status,
      headers: answer.headers,
    });
  };
  return createClient({
    baseUrl: upstream.baseUrl,
    apiKey: upstream.apiKey,
    fetch: governedFetch,
    pacing: { enabled: false },
    ...(terms.retry ? { retry: terms.retry } : {}),
  });
}
