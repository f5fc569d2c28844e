import type { Db } from './database';
import { sqlOf } from './sql';
import type { ApiKeyRow, SellerRow, SellerState } from './rows';

/** Sellers and their API keys (stored as SHA-256 hashes, never in plain text). */
export function createAccountsStore(db: Db) {
  const sql = sqlOf(db);
  const selectSeller = db.prepare(`SELECT * FROM sellers WHERE id = ?`);
  const updateSeller = db.prepare(
    `UPDATE sellers SET state = @state, write_approved = @write_approved, listing_cap = @listing_cap
     WHERE id = @id`,
  );
  const markDeleted = db.prepare(`UPDATE sellers SET deleted = 1 WHERE id = ?`);
  const selectKeyByHash = db.prepare(`SELECT * FROM api_keys WHERE token_hash = ?`);
  const selectKey = db.prepare(`SELECT * FROM api_keys WHERE id = ?`);
  const revokeKey = db.prepare(
    `UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL`,
  );

  return {
    createSeller(row: Omit<SellerRow, 'deleted'>): SellerRow {
      sql.insert('sellers', row);
      return this.seller(row.id)!;
    },
    seller(id: string): SellerRow | undefined {
      return selectSeller.get(id) as SellerRow | undefined;
    },
    updateSeller(
      id: string,
      patch: { state: SellerState; write_approved: number; listing_cap: number | null },
    ): void {
      updateSeller.run({ id, ...patch });
    },
    deleteSeller(id: string): void {
      markDeleted.run(id);
    },
    createKey(row: Omit<ApiKeyRow, 'revoked_at'>): ApiKeyRow {
      sql.insert('api_keys', row);
      return selectKey.get(row.id) as ApiKeyRow;
    },
    key(id: string): ApiKeyRow | undefined {
      return selectKey.get(id) as ApiKeyRow | undefined;
    },
    keyByHash(hash: string): ApiKeyRow | undefined {
      return selectKeyByHash.get(hash) as ApiKeyRow | undefined;
    },
    revokeKey(id: string, at: number): void {
      revokeKey.run(at, id);
    },
  };
}

export type AccountsStore = ReturnType<typeof createAccountsStore>;
