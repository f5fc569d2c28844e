import type { Db } from './database';
import { sqlOf } from './sql';
import type { ApiKeyRow, SellerRow } from './rows';

/** Sellers and their API keys (stored as SHA-256 hashes, never in plain text). */
export function createAccountsStore(db: Db) {
  const sql = sqlOf(db);
  const seller = sql.one<SellerRow>(`SELECT * FROM sellers WHERE id = ?`);
  const key = sql.one<ApiKeyRow>(`SELECT * FROM api_keys WHERE id = ?`);
  return {
    createSeller(row: Omit<SellerRow, 'deleted'>): SellerRow {
      sql.insert('sellers', row);
      return seller(row.id)!;
    },
    seller,
    updateSeller: sql.run<[Pick<SellerRow, 'id' | 'state' | 'write_approved' | 'listing_cap'>]>(
      `UPDATE sellers SET state = @state, write_approved = @write_approved, listing_cap = @listing_cap
       WHERE id = @id`,
    ),
    deleteSeller: sql.run(`UPDATE sellers SET deleted = 1 WHERE id = ?`),
    createKey(row: Omit<ApiKeyRow, 'revoked_at'>): ApiKeyRow {
      sql.insert('api_keys', row);
      return key(row.id)!;
    },
    key,
    keyByHash: sql.one<ApiKeyRow>(`SELECT * FROM api_keys WHERE token_hash = ?`),
    revokeKey: sql.run<[at: number, id: string]>(
      `UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL`,
    ),
  };
}
