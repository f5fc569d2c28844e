import type { IncomingMessage } from 'node:http';
import type { PacerTicket, RequestPriority } from '../client/pacer';
import type { Actor } from './auth/roles';
import {
  connectionLostAnswer,
  timeoutAnswer,
  tooLargeAnswer,
  tooManyWaitingAnswer,
  turnTimeoutAnswer,
} from './failed-call-answers';
import { callShare, callTab } from './governor/call-share';
import { TooManyWaitingError } from './governor/fair-gate';
import { UpstreamPausedError, type KeyGovernor } from './governor/key-governor';
import { UpstreamTooLargeError } from './upstream-body';
import {
  callUpstream,
  DEFAULT_UPSTREAM_LIMITS,
  UpstreamConnectionLostError,
  UpstreamTimeoutError,
  type UpstreamAnswer,
  type UpstreamLimits,
} from './upstream-call';
import { pausedAnswer } from './upstream-pause';

/** Whose turn a call takes in the governor, and the limits of its upstream call. */
export interface CallTerms {
  share?: string | undefined;
  /** The browser tab within the share ('' or unset: none named). */
  tab?: string | undefined;
  limits?: Partial<UpstreamLimits> | undefined;
}

/** What a browser request's options say of its calls (ProxyOptions has these members). */
export interface CallTermsSource {
  actor?: Actor | null | undefined;
  session?: string | undefined;
  upstreamLimits?: Partial<UpstreamLimits> | undefined;
}

/** The terms of the calls one browser request makes (`share` per ProxyOptions.session). */
export function callTermsOf(request: IncomingMessage, options: CallTermsSource): CallTerms {
  return {
    share: callShare(request, options.actor, options.session),
    tab: callTab(request),
    limits: options.upstreamLimits,
  };
}

/**
 * A ticket in the governor within the call's own deadline (`headersMs`): rejects with
 * TurnTimeoutError when its turn has not come by then, with the browser's abort when it went away.
 */
async function acquireWithin(
  governor: KeyGovernor,
  priority: RequestPriority,
  signal: AbortSignal | undefined,
  terms: CallTerms,
  waitMs: number,
): Promise<PacerTicket> {
  const waiting = new AbortController();
  const timer = setTimeout(() => waiting.abort(new TurnTimeoutError(waitMs)), waitMs);
  const onGone = () => waiting.abort(signal?.reason);
  if (signal?.aborted) onGone();
  else signal?.addEventListener('abort', onGone, { once: true });
  try {
    return await governor.acquire(priority, waiting.signal, terms.share, terms.tab);
  } catch (error) {
    throw waiting.signal.reason instanceof TurnTimeoutError ? waiting.signal.reason : error;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onGone);
  }
}

/** A call's turn in the governor did not come within its deadline; nothing was sent. */
class TurnTimeoutError extends Error {
  constructor(readonly afterMs: number) {
    super(`No turn in the governor within ${afterMs} ms`);
    this.name = 'TurnTimeoutError';
  }
}

/**
 * One upstream call after its turn in the governor: the answer, `gone` (taken back while waiting)
 * or `unreachable`. The server's own answers in the API's envelope: during a long pause 503
 * `upstream_paused` at once; past the share's waiting bound 429 `too_many_waiting`; no turn within
 * the call's deadline, or no answer within it once sent, 504 `upstream_timeout`; past the body cap
 * 502 `upstream_too_large`; a write whose connection was lost before any answer (not sent again,
 * having no `Idempotency-Key`) 502 `upstream_unreachable` saying its outcome is unknown. So a call
 * waits at most its own deadline for its turn, whatever is in flight ahead of it.
 */
export async function governedUpstreamCall(
  governor: KeyGovernor | undefined,
  priority: RequestPriority,
  signal: AbortSignal | undefined,
  url: string,
  init: { method: string; headers: Record<string, string>; body?: ArrayBuffer | undefined },
  terms: CallTerms = {},
): Promise<UpstreamAnswer | 'gone' | 'unreachable'> {
  let ticket: PacerTicket | undefined;
  try {
    const waitMs = terms.limits?.headersMs ?? DEFAULT_UPSTREAM_LIMITS.headersMs;
    ticket = governor ? await acquireWithin(governor, priority, signal, terms, waitMs) : undefined;
  } catch (error) {
    if (error instanceof TurnTimeoutError) return turnTimeoutAnswer(error.afterMs);
    if (error instanceof UpstreamPausedError) return pausedAnswer(error.pause);
    if (error instanceof TooManyWaitingError) {
      return tooManyWaitingAnswer(error.waiting, error.retryAfterSeconds);
    }
    return 'gone';
  }
  try {
    const answer = await callUpstream(url, init, terms.limits);
    if (ticket) governor?.settle(ticket, answer.status, answer.headers);
    // The 429 that asked for a long pause is told as the pause it started.
    const paused = answer.status === 429 ? governor?.paused() : undefined;
    return paused ? pausedAnswer(paused) : answer;
  } catch (error) {
    if (ticket) governor?.settle(ticket, 0, null);
    if (error instanceof UpstreamTimeoutError) return timeoutAnswer(init.method, error.afterMs);
    if (error instanceof UpstreamTooLargeError) return tooLargeAnswer(init.method, error.maxBytes);
    const read = init.method === 'GET' || init.method === 'HEAD';
    if (error instanceof UpstreamConnectionLostError && !read) {
      return connectionLostAnswer(init.method);
    }
    return 'unreachable';
  }
}
