import { createHash } from 'node:crypto';
import type { Store } from '../store';
import { ApiError, validationError } from './api-error';

/** What a write answered: replayed verbatim to a retry with the same key. */
export interface Outcome {
  status: number;
  body: unknown;
}

/** Outcomes that are final and replayed; failures with nothing created (503, 429, 500) are not. */
export const isFinalStatus = (status: number) =>
  (status >= 200 && status < 300) || status === 404 || status === 409 || status === 422;

/** The body as sorted-key JSON; the body parser has bounded its depth (MAX_JSON_DEPTH) first. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const members = Object.entries(value)
    .filter(([, member]) => member !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, member]) => `${JSON.stringify(key)}:${canonical(member)}`);
  return `{${members.join(',')}}`;
}

/** The request's identity: method, resource path and body (key order does not matter). */
export function requestHash(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${path}\n${canonical(body)}`)
    .digest('hex');
}

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** A write in progress under an `Idempotency-Key`: `record` stores its outcome. */
export interface IdempotentRun {
  /** Stores the outcome; call inside the write's own transaction so both commit or neither. */
  record(outcome: Outcome): void;
  end(): void;
}

export type Admission = { kind: 'replay'; outcome: Outcome } | { kind: 'run'; run: IdempotentRun };

/** `Idempotency-Key` per credential: a stored outcome replays; reuse or in-flight is a 409. */
export class IdempotencyGuard {
  private readonly inFlight = new Map<string, string>();

  constructor(
    private readonly store: Store,
    private readonly now: () => number,
  ) {}

  static parseKey(header: string | string[] | undefined): string | undefined {
    if (header === undefined) return undefined;
    if (Array.isArray(header) || !KEY_PATTERN.test(header.trim())) {
      throw validationError({
        'Idempotency-Key': ['must be given once, 1 to 255 visible characters (a UUID is ideal)'],
      });
    }
    return header.trim();
  }

  admit(keyId: string, idemKey: string, hash: string): Admission {
    const stored = this.store.idempotency.get(keyId, idemKey);
    if (stored) {
      if (stored.request_hash !== hash) throw reuse();
      return {
        kind: 'replay',
        outcome: { status: stored.status, body: JSON.parse(stored.body) as unknown },
      };
    }
    const slot = `${keyId}\u0000${idemKey}`;
    const running = this.inFlight.get(slot);
    if (running !== undefined) {
      if (running !== hash) throw reuse();
      throw new ApiError(
        409,
        'idempotency_request_in_flight',
        'A request with this Idempotency-Key is still executing; retry after Retry-After seconds with the same key',
        { retryAfter: 1 },
      );
    }
    this.inFlight.set(slot, hash);
    return {
      kind: 'run',
      run: {
        record: (outcome) => {
          this.store.idempotency.put({
            key_id: keyId,
            idem_key: idemKey,
            request_hash: hash,
            status: outcome.status,
            body: JSON.stringify(outcome.body),
            created_at: this.now(),
          });
        },
        end: () => {
          this.inFlight.delete(slot);
        },
      },
    };
  }

  /** Forgets requests in flight (after a reset of the store). */
  clear(): void {
    this.inFlight.clear();
  }
}

const reuse = () =>
  new ApiError(
    409,
    'idempotency_key_reuse',
    'This Idempotency-Key was already used with a different request',
  );
