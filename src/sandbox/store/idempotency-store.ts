import type { Db } from './database';
import type { RowOf } from './migrations';
import { sqlOf } from './sql';

/** A stored outcome of a write sent with an `Idempotency-Key`, replayed to retries. */
type IdempotencyRow = RowOf<'idempotency_keys'>;

/** Idempotent outcomes, scoped to the credential (API key) that sent them. */
export function createIdempotencyStore(db: Db) {
  const sql = sqlOf(db);
  return {
    get: sql.one<IdempotencyRow, [keyId: string, idemKey: string]>(
      `SELECT * FROM idempotency_keys WHERE key_id = ? AND idem_key = ?`,
    ),
    /** Records an outcome; call inside the write's own transaction. */
    put(row: IdempotencyRow): void {
      sql.insert('idempotency_keys', row);
    },
  };
}
