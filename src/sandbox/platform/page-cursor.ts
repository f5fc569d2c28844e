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

export function createCursorCodec(secret: string) {
  const sign = (body: string) => createHmac('sha256', secret).update(body).digest('base64url');
  return {
    encode(payload: CursorPayload): string {
      const body = Buffer.from(
        JSON.stringify([
          1,
          payload.resource,
          payload.sort,
          payload.filters,
          payload.filterHash,
          payload.seq,
          payload.direction === 'next' ? 'n' : 'p',
          payload.limit,
          payload.fields ?? null,
          payload.epoch,
          payload.issuedAt,
        ]),
      ).toString('base64url');
      return `${body}.${sign(body)}`;
    },
    /** Verifies the signature and shape; throws `invalid_page_info` for anything not issued here. */
    decode(token: string): CursorPayload {
      const [body, signature, ...rest] = token.split('.');
      if (!body || !signature || rest.length > 0 || !safeEqual(signature, sign(body))) {
        throw invalid('page_info is malformed or was not issued by this API');
      }
      let parts: unknown;
      try {
        parts = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      } catch {
        throw invalid('page_info is malformed or was not issued by this API');
      }
      if (!Array.isArray(parts) || parts[0] !== 1 || parts.length !== 11) {
        throw invalid('page_info is malformed or was not issued by this API');
      }
      const [
        ,
        resource,
        sort,
        filters,
        filterHash,
        seq,
        direction,
        limit,
        fields,
        epoch,
        issuedAt,
      ] = parts as [
        number,
        string,
        string,
        Record<string, string>,
        string,
        number,
        string,
        number,
        string | null,
        string,
        number,
      ];
      return {
        resource,
        sort,
        filters,
        filterHash,
        seq,
        direction: direction === 'p' ? 'previous' : 'next',
        limit,
        fields: fields ?? undefined,
        epoch,
        issuedAt,
      };
    },
  };
}

export type CursorCodec = ReturnType<typeof createCursorCodec>;
