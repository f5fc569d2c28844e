import { createClient, type SlabdeskClient } from '../client';
import type { RetryPolicy } from '../client/transport-types';
import type { RequestPriority } from '../client/pacer';
import type { Upstream } from './api-proxy';
import { governedUpstreamCall } from './governed-call';
import type { KeyGovernor } from './governor/key-governor';

// The Fetch standard refuses a body with these.
const NO_BODY = new Set([101, 204, 205, 304]);

/** `fetch` through the key's governor: the server's own calls pace with every tab's. */
function governedFetch(
  governor: KeyGovernor | undefined,
  priority: RequestPriority,
  share: string,
): typeof fetch {
  return async (input, init = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const body =
      typeof init.body === 'string' ? new TextEncoder().encode(init.body).buffer : undefined;
    const signal = init.signal ?? undefined;
    const answer = await governedUpstreamCall(
      governor,
      priority,
      signal,
      url,
      { method: init.method ?? 'GET', headers, body },
      { share },
    );
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
}

/** The one typed API client on the server, paced by the governor (its own pacer off). */
export function serverClient(
  upstream: Upstream,
  governor: KeyGovernor | undefined,
  terms: { priority: RequestPriority; share: string; retry?: Partial<RetryPolicy> },
): SlabdeskClient {
  return createClient({
    baseUrl: upstream.baseUrl,
    apiKey: upstream.apiKey,
    fetch: governedFetch(governor, terms.priority, terms.share),
    pacing: { enabled: false },
    ...(terms.retry ? { retry: terms.retry } : {}),
  });
}
