import type { PlatformState } from '../context';
import { CURRENT_VERSION } from '../platform/versions';
import { isoTime } from '../platform/time';

/** GET /ping: the `ping` object. */
export function pingView(caller: PlatformState, requestId: string, now: number) {
  return {
    ok: true,
    api_version: CURRENT_VERSION,
    mode: caller.mode,
    seller_id: caller.seller!.id,
    key_id: caller.key!.id,
    scopes: [...caller.scopes],
    request_id: requestId,
    server_time: isoTime(now),
  };
}
