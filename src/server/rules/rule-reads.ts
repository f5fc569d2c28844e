import { parseLinkHeader } from '../../client/link-header';
import { parseBoundedJson, isRecord } from '../bounded-json';
import type { Upstream } from '../api-proxy';
import type { KeyGovernor } from '../governor/key-governor';
import { governedUpstreamCall } from '../governed-call';
import type { ListingFacts } from './rule-plan';

/**
 * The rules' calls upstream: each takes a background ticket of the key's governor under the
 * rules' own share, so a seller's click goes first and the tabs' calls take turns with them.
 */
export const RULES_SHARE = 'server:rules';

export interface ApiAnswer {
  status: number;
  /** `svc_error.code` of an error answer. */
  code: string | null;
  retryAfterSeconds: number | null;
  body: unknown;
  headers: Headers | null;
}

export async function rulesCall(
  upstream: Upstream,
  governor: KeyGovernor | undefined,
  method: string,
  path: string,
  options: { body?: unknown; idempotencyKey?: string; signal?: AbortSignal } = {},
): Promise<ApiAnswer> {
  const headers: Record<string, string> = {
    'x-service-access-token': upstream.apiKey,
    accept: 'application/json',
  };
  let body: ArrayBuffer | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    const bytes = Buffer.from(JSON.stringify(options.body));
    body = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }
  if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
  const url = path.startsWith('http') ? path : `${upstream.baseUrl}${path}`;
  const answer = await governedUpstreamCall(
    governor,
    'background',
    options.signal,
    url,
    { method, headers, body },
    { share: RULES_SHARE },
  );
  if (answer === 'gone')
    return { status: -1, code: 'gone', retryAfterSeconds: null, body: null, headers: null };
  if (answer === 'unreachable') {
    return {
      status: 0,
      code: 'upstream_unreachable',
      retryAfterSeconds: null,
      body: null,
      headers: null,
    };
  }
  const parsed = parseBoundedJson(answer.body.toString('utf8'));
  const value = parsed.ok ? parsed.value : null;
  const error = isRecord(value) && isRecord(value.svc_error) ? value.svc_error : undefined;
  const retry = Number(answer.headers.get('retry-after'));
  return {
    status: answer.status,
    code: typeof error?.code === 'string' ? error.code : null,
    retryAfterSeconds: Number.isFinite(retry) && retry > 0 ? retry : null,
    body: value,
    headers: answer.headers,
  };
}

/** Thrown when a read the plan needs did not succeed. */
export class ReadFailedError extends Error {
  constructor(readonly answer: ApiAnswer) {
    super(`A read for the rules failed (${answer.status} ${answer.code ?? ''})`);
    this.name = 'ReadFailedError';
  }
}

/** Every record of a collection, page after page by the `Link` header's next. */
async function walk(
  upstream: Upstream,
  governor: KeyGovernor | undefined,
  path: string,
  key: string,
  signal?: AbortSignal,
): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  let next: string | undefined = `${upstream.baseUrl}${path}`;
  // A bound on pages, so a server that links to itself cannot hold a run for good.
  for (let page = 0; next && page < 2_000; page++) {
    let answer = await rulesCall(upstream, governor, 'GET', next, { signal });
    // A 429 paused the governor's bucket: the next turn waits it out (a few times at most).
    for (let retry = 0; retry < 5 && answer.status === 429; retry++) {
      answer = await rulesCall(upstream, governor, 'GET', next, { signal });
    }
    if (answer.status !== 200 || !isRecord(answer.body)) throw new ReadFailedError(answer);
    const rows = answer.body[key];
    if (Array.isArray(rows)) for (const row of rows) if (isRecord(row)) out.push(row);
    const link = parseLinkHeader(answer.headers?.get('link')).next;
    next = link && link.startsWith(upstream.baseUrl) ? link : undefined;
  }
  return out;
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** Whole cents of a decimal string, exactly; null when it is not one. */
export function centsOf(value: unknown): bigint | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(String(value).trim());
  if (!match) return null;
  return BigInt(match[1]!) * 100n + BigInt(((match[2] ?? '') + '00').slice(0, 2));
}

/** What the rules know of the seller's listings: each with its card's cost, and where to read on. */
export interface ListingsRead {
  listings: Map<string, ListingFacts>;
  /** Card id → cost in cents (null: not set). */
  costs: Map<string, bigint | null>;
  /** The newest `updated_at` seen: the next read asks only for what changed from it. */
  cursor: string | undefined;
}

/** A listing row of the API as the planner reads it; undefined when it cannot be written. */
function factsOf(row: Record<string, unknown>, costs: Map<string, bigint | null>) {
  const id = text(row.id);
  const price = centsOf(row.price);
  // A degraded record or one without a readable price is never written.
  if (!id || price === null || 'svc_serialization_error' in row) return undefined;
  const card = isRecord(row.card) ? row.card : {};
  const cardId = text(card.id);
  const listed = text(row.listed_at);
  const listedAt = listed ? Date.parse(listed) : NaN;
  const facts: ListingFacts = {
    id,
    title: text(row.title) ?? id,
    status: text(row.status) ?? 'unknown',
    unavailableReason: text(row.unavailable_reason),
    canReactivate: row.can_reactivate === true,
    priceCents: price,
    minimumOfferCents: centsOf(row.minimum_offer),
    acceptsOffers: row.accepts_offers === true,
    promoted: row.promoted === true,
    isLot: row.is_lot === true,
    grader: text(card.grader),
    grade: text(card.grade),
    category: text(card.category),
    listedAt: Number.isNaN(listedAt) ? null : listedAt,
    cardId,
    costCents: cardId ? (costs.get(cardId) ?? null) : null,
  };
  return facts;
}

/** A margin before the cursor: a change stamped in the same second as the last read is read again. */
const CURSOR_OVERLAP_MS = 2_000;

/**
 * The seller's listings and their cards' costs: all of them, or (given an earlier read) only what
 * changed since it, asked with `updated_at_min` and merged in.
 */
export async function readListings(
  upstream: Upstream,
  governor: KeyGovernor | undefined,
  earlier?: ListingsRead,
  signal?: AbortSignal,
): Promise<ListingsRead> {
  const since =
    earlier?.cursor === undefined
      ? ''
      : `&updated_at_min=${encodeURIComponent(
          new Date(Date.parse(earlier.cursor) - CURSOR_OVERLAP_MS).toISOString(),
        )}`;
  const [rows, items] = await Promise.all([
    walk(upstream, governor, `/2026-07/listings.json?limit=250${since}`, 'listings', signal),
    walk(
      upstream,
      governor,
      `/2026-07/inventory_items.json?limit=250${since}`,
      'inventory_items',
      signal,
    ),
  ]);
  const read: ListingsRead = earlier
    ? { listings: earlier.listings, costs: earlier.costs, cursor: earlier.cursor }
    : { listings: new Map(), costs: new Map(), cursor: undefined };
  const changedCards = new Set<string>();
  for (const item of items) {
    const id = text(item.id);
    if (!id) continue;
    // The marketplace answers "0.00" for a cost never entered: zero reads as not set (as the
    // dashboard reads it), never as a free card.
    const cost = centsOf(item.cost);
    read.costs.set(id, cost === null || cost === 0n ? null : cost);
    changedCards.add(id);
  }
  if (earlier && changedCards.size > 0) {
    for (const listing of read.listings.values()) {
      if (listing.cardId && changedCards.has(listing.cardId)) {
        listing.costCents = read.costs.get(listing.cardId) ?? null;
      }
    }
  }
  for (const row of rows) {
    const facts = factsOf(row, read.costs);
    if (facts) read.listings.set(facts.id, facts);
    const updated = text(row.updated_at);
    if (updated && !Number.isNaN(Date.parse(updated)) && (!read.cursor || updated > read.cursor)) {
      read.cursor = updated;
    }
  }
  return read;
}

/** The seller's listings as the planner reads them (a whole read). */
export async function readListingFacts(
  upstream: Upstream,
  governor: KeyGovernor | undefined,
  signal?: AbortSignal,
): Promise<ListingFacts[]> {
  return [...(await readListings(upstream, governor, undefined, signal)).listings.values()];
}
