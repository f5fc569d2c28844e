import { isApiError, type SlabdeskClient } from '../../client';
import { CLIENT_ERROR_CODES } from '../../client/api-error';
import type { Upstream } from '../api-proxy';
import type { KeyGovernor } from '../governor/key-governor';
import { serverClient } from '../server-client';
import type { WriteFields } from './rule-plan';

/**
 * The rules' writes: the one typed client, each call a background ticket of the key's governor
 * under the rules' own share, so a seller's click goes first. The client tries nothing again by
 * itself: the runner decides (a pause, a stop, the same key again).
 */
export const RULES_SHARE = 'server:rules';

export interface ApiAnswer {
  status: number;
  /** `svc_error.code` of an error answer. */
  code: string | null;
  retryAfterSeconds: number | null;
  /** The answer's body (a 2xx: the listing's update view). */
  body: unknown;
  requestId: string | null;
}

export function rulesClient(upstream: Upstream, governor: KeyGovernor | undefined): SlabdeskClient {
  return serverClient(upstream, governor, {
    priority: 'background',
    share: RULES_SHARE,
    retry: { rateLimited: 0, unavailableBudgetSeconds: 0, transient: 0 },
  });
}

/** PUT one listing's fields under the run item's Idempotency-Key. */
export async function writeListing(
  client: SlabdeskClient,
  listingId: string,
  after: WriteFields,
  idempotencyKey: string | undefined,
  signal: AbortSignal,
): Promise<ApiAnswer> {
  try {
    const response = await client.transport.request({
      method: 'PUT',
      path: `/listings/${encodeURIComponent(listingId)}.json`,
      body: { listing: after },
      ...(idempotencyKey ? { idempotencyKey } : {}),
      signal,
      priority: 'background',
    });
    return {
      status: response.status,
      code: null,
      retryAfterSeconds: null,
      body: response.body,
      requestId: response.meta.requestId ?? null,
    };
  } catch (error) {
    if (!isApiError(error)) throw error;
    if (error.code === CLIENT_ERROR_CODES.aborted) {
      return { status: -1, code: 'gone', retryAfterSeconds: null, body: null, requestId: null };
    }
    if (error.status === 0) {
      return {
        status: 0,
        code: 'upstream_unreachable',
        retryAfterSeconds: null,
        body: null,
        requestId: null,
      };
    }
    return {
      status: error.status,
      code: error.code,
      retryAfterSeconds: error.retryAfter ?? null,
      body: null,
      requestId: error.requestId ?? null,
    };
  }
}
