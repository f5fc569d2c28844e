import type { Store } from '../store';
import type { ApiKeyRow, SellerRow, SellerState } from '../store/rows';
import { hashToken } from '../platform/credentials';
import type { ApiScope } from '../platform/scopes';
import { ALPHANUMERIC, type IdSource } from './ids';

export interface NewSeller {
  id?: string;
  name?: string;
  state?: SellerState;
  write_approved?: boolean;
  listing_cap?: number | null;
}

export function createSeller(
  store: Store,
  ids: IdSource,
  now: number,
  input: NewSeller,
): SellerRow {
  const id = input.id ?? ids.id('slr');
  return store.accounts.createSeller({
    id,
    name: input.name ?? `Seller ${id.slice(-4).toUpperCase()}`,
    state: input.state ?? 'active',
    write_approved: input.write_approved === false ? 0 : 1,
    listing_cap: input.listing_cap ?? null,
    created_at: now,
  });
}

/** Mints a key: the token is returned once and only its hash is stored. */
export function mintKey(
  store: Store,
  ids: IdSource,
  now: number,
  input: { sellerId: string; mode: 'live' | 'test'; scopes: readonly ApiScope[]; token?: string },
) {
  const token = input.token ?? `svc_${input.mode}_${ids.chars(32, ALPHANUMERIC)}`;
  const row = store.accounts.createKey({
    id: ids.id('key'),
    seller_id: input.sellerId,
    token_hash: hashToken(token),
    mode: input.mode,
    scopes: JSON.stringify(input.scopes),
    created_at: now,
  });
  return { row, token };
}

export const sellerView = (row: SellerRow) => ({
  id: row.id,
  name: row.name,
  state: row.state,
  write_approved: row.write_approved === 1,
  listing_cap: row.listing_cap,
  deleted: row.deleted === 1,
});

export const keyView = (row: ApiKeyRow, token?: string) => ({
  id: row.id,
  seller_id: row.seller_id,
  ...(token ? { token } : {}),
  mode: row.mode,
  scopes: JSON.parse(row.scopes) as string[],
  revoked: row.revoked_at !== null,
});
