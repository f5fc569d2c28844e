import type { KeyMode } from './pacer';
import { parseLinkHeaderAt } from './link-header';
import type { ResponseMeta } from './transport-types';

/** `X-Service-Api-Call-Limit` ("used/capacity"), or undefined when absent or malformed. */
export function parseCallLimit(value: string | null): ResponseMeta['callLimit'] {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(value ?? '');
  if (!match) return undefined;
  return { used: Number(match[1]), capacity: Number(match[2]) };
}

const modeOf = (value: string | null): KeyMode | undefined =>
  value === 'live' || value === 'test' ? value : undefined;

/** What the transport records of one answer (status, headers it reads, timing). */
export function responseMetaOf(
  method: string,
  url: string,
  response: Response,
  started: number,
  attempt: number,
): ResponseMeta {
  const h = response.headers;
  const date = h.get('date');
  const receivedAt = Date.now();
  return {
    method,
    url,
    status: response.status,
    requestId: h.get('x-request-id') ?? undefined,
    callLimit: parseCallLimit(h.get('x-service-api-call-limit')),
    mode: modeOf(h.get('x-service-api-mode')),
    version: h.get('x-service-api-version') ?? undefined,
    serverDate: date ? Date.parse(date) || undefined : undefined,
    receivedAt,
    durationMs: receivedAt - started,
    attempt,
    links: parseLinkHeaderAt(h.get('link'), url),
    replayed: h.get('idempotent-replayed') === 'true',
    sunset: h.get('sunset') ?? undefined,
    deprecation: h.get('deprecation') ?? undefined,
  };
}
