import { createHash } from 'node:crypto';
import type { Store } from '../store';
import { ApiError, validationError } from './api-error';
import { MAX_JSON_DEPTH } from '../../shared/json-body';
import { MAX_BODY_BYTES } from '../../shared/spec-limits';

/** What a write answered: replayed verbatim to a retry with the same key. */
export interface Outcome {
  status: number;
  body: unknown;
}

/** Outcomes that are final and replayed; failures with nothing created (503, 429, 500) are not. */
export const isFinalStatus = (status: number) =>
  (status >= 200 && status < 300) || status === 404 || status === 409 || status === 422;

/** How deep and how large a body the request hash reads (the body parser bounds both first). */
const MAX_CANONICAL_DEPTH = MAX_JSON_DEPTH;
const MAX_CANONICAL_VALUES = MAX_BODY_BYTES;

/** A piece of text to write, or a value to write at a nesting depth. */
type Step = string | { value: unknown; depth: number };

/** The body as sorted-key JSON, walked with its own stack; past the bounds it is a 422. */
function canonical(body: unknown): string {
  const parts: string[] = [];
  const steps: Step[] = [{ value: body, depth: 0 }];
  let values = 0;
  while (steps.length > 0) {
    const step = steps.pop()!;
    if (typeof step === 'string') {
      parts.push(step);
      continue;
    }
    const { value, depth } = step;
    if (++values > MAX_CANONICAL_VALUES) {
      throw validationError({ body: [`holds more than ${MAX_CANONICAL_VALUES} values`] });
    }
    if (value === null || typeof value !== 'object') {
      parts.push(JSON.stringify(value ?? null));
      continue;
    }
    if (depth >= MAX_CANONICAL_DEPTH) {
      throw validationError({
        body: [`nests arrays and objects deeper than ${MAX_CANONICAL_DEPTH} levels`],
      });
    }
    // Pushed in reverse: the stack gives them back in order.
    if (Array.isArray(value)) {
      parts.push('[');
      steps.push(']');
      for (let i = value.length - 1; i >= 0; i--) {
        steps.push({ value: value[i] as unknown, depth: depth + 1 });
        if (i > 0) steps.push(',');
      }
      continue;
    }
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    parts.push('{');
    steps.push('}');
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i]!;
      steps.push({ value: item, depth: depth + 1 });
      steps.push(`${JSON.stringify(key)}:`);
      if (i > 0) steps.push(',');
    }
  }
  return parts.join('');
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
