import { createHash, createHmac } from 'node:crypto';
import { ApiError } from './api-error';
import { safeEqual } from './credentials';

/** What a `page_info` cursor carries, signed so that it cannot be forged or edited. */
export interface CursorPayload {
  /** The endpoint that issued it (`listings`, `products`, `orders`, ...). */
  resource: string;
  /** The sort it was issued under. */
  sort: string;
  /** The filter values of the walk, and their hash. */
  filters: Record<string, string>;
  filterHash: string;
  /** The keyset position: the sequence number of the edge row, and which way to go from it. */
  seq: number;
  direction: 'next' | 'previous';
  limit: number;
  fields?: string | undefined;
  /** The store epoch (bumped by a reset) and the marketplace time it was issued at. */
  epoch: string;
  issuedAt: number;
}

/** Cursors older than this (on the marketplace clock) are stale: the walk restarts. */
export const CURSOR_TTL_MS = 60 * 60 * 1000;

export function hashFilters(filters: Record<string, string>): string {
  const canonical = JSON.stringify(
    Object.keys(filters)
      .sort()
      .map((k) => [k, filters[k]]),
  );
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 16);
}

const invalid = (message: string) => new ApiError(400, 'invalid_page_info', message);

/** The payload's members in their order inside the token (after its version, 1). */
const MEMBERS = [
  'resource',
  'sort',
  'filters',
  'filterHash',
  'seq',
  'direction',
  'limit',
  'fields',
  'epoch',
  'issuedAt',
] as const;

export function createCursorCodec(secret: string) {
  const sign = (body: string) => createHmac('sha256', secret).update(body).digest('base64url');
  const malformed = () => invalid('page_info is malformed or was not issued by this API');
  return {
    encode(payload: CursorPayload): string {
      const values = MEMBERS.map((name) => {
        if (name === 'direction') return payload.direction === 'next' ? 'n' : 'p';
        return payload[name] ?? null;
      });
      const body = Buffer.from(JSON.stringify([1, ...values])).toString('base64url');
      return `${body}.${sign(body)}`;
    },
    /** Verifies the signature and shape; throws `invalid_page_info` for anything not issued here. */
    decode(token: string): CursorPayload {
      const [body, signature, ...rest] = token.split('.');
      if (!body || !signature || rest.length > 0 || !safeEqual(signature, sign(body))) {
        throw malformed();
      }
      let parts: unknown;
      try {
        parts = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      } catch {
        throw malformed();
      }
      if (!Array.isArray(parts) || parts[0] !== 1 || parts.length !== 11) throw malformed();
      const read = Object.fromEntries(MEMBERS.map((name, i) => [name, parts[i + 1]]));
      return {
        ...(read as Omit<CursorPayload, 'direction' | 'fields'>),
        direction: read.direction === 'p' ? 'previous' : 'next',
        fields: (read.fields as string | null) ?? undefined,
      };
    },
  };
}

export type CursorCodec = ReturnType<typeof createCursorCodec>;
