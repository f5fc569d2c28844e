import type { IncomingMessage } from 'node:http';
import type { PacerTicket, RequestPriority } from '../client/pacer';
import type { Actor } from './auth/roles';
import { timeoutAnswer, tooLargeAnswer, tooManyWaitingAnswer } from './failed-call-answers';
import { callShare } from './governor/call-share';
import { TooManyWaitingError } from './governor/fair-gate';
import { UpstreamPausedError, type KeyGovernor } from './governor/key-governor';
import { UpstreamTooLargeError } from './upstream-body';
import {
  callUpstream,
  UpstreamTimeoutError,
  type UpstreamAnswer,
  type UpstreamLimits,
} from './upstream-call';
import { pausedAnswer } from './upstream-pause';

/** Whose turn a call takes in the governor, and the limits of its upstream call. */
export interface CallTerms {
  share?: string | undefined;
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
    limits: options.upstreamLimits,
  };
}

/**
 * One upstream call after its turn in the governor: the answer, `gone` (taken back while waiting)
 * or `unreachable`. The server's own answers in the API's envelope: during a long pause 503
 * `upstream_paused` at once; past the share's waiting bound 429 `too_many_waiting`; past the
 * deadline 504 `upstream_timeout`; past the body cap 502 `upstream_too_large`.
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
    ticket = governor ? await governor.acquire(priority, signal, terms.share) : undefined;
  } catch (error) {
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
    return 'unreachable';
  }
}
