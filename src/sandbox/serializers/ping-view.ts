import { CURRENT_VERSION } from '../platform/versions';
import { isoTime } from '../platform/time';

export interface PingFacts {
  mode: 'live' | 'test';
  sellerId: string;
  keyId: string;
  scopes: readonly string[];
  requestId: string;
  now: number;
}

/** GET /ping: the `ping` object. */
export function pingView(facts: PingFacts) {
  return {
    ok: true,
    api_version: CURRENT_VERSION,
    mode: facts.mode,
    seller_id: facts.sellerId,
    key_id: facts.keyId,
    scopes: [...facts.scopes],
    request_id: facts.requestId,
    server_time: isoTime(facts.now),
  };
}
