import type { Db } from './database';
import { scopeParams, sqlOf, type Page, type PageRequest } from './sql';
import type { ListingRow, ListingWithCardRow, Scope } from './rows';

/** SQL: a listing's inventory item ids in lot order, comma-separated. */
export const memberIdsSql = (
  listing: string,
) => `CASE WHEN ${listing}.is_lot = 0 THEN ${listing}.primary_item_id ELSE
    (SELECT group_concat(m.inventory_item_id, ',') FROM
       (SELECT inventory_item_id FROM listing_items WHERE listing_id = ${listing}.id ORDER BY position) m)
  END`;

const SELECT_WITH_CARD = `SELECT t.*, c.title AS card_title, c.cert_number AS card_cert_number,
  c.grader AS card_grader, c.grade AS card_grade, c.year AS card_year, c.card_set AS card_set,
  c.category AS card_category, c.player AS card_player, c.variant AS card_variant,
  ${memberIdsSql('t')} AS member_ids
  FROM listings t JOIN inventory_items c ON c.id = t.primary_item_id`;

/** Columns a write may change; anything else in a patch is a programming error. */
const UPDATABLE = new Set<keyof ListingRow>([
  'title',
  'description',
  'status',
  'unavailable_reason',
  'price_cents',
  'minimum_offer_cents',
  'accepts_offers',
  'accepts_trades',
  'auto_relist',
  'promoted',
  'duration_hours',
  'window_ends_at',
  'scheduled_go_live_at',
  'images',
  'listed_at',
  'updated_at',
]);

export type ListingPatch = Partial<Pick<ListingRow, Extract<keyof ListingRow, string>>>;

/** Listings, their member cards, and the queries the marketplace clock needs. */
export function createListingsStore(db: Db) {
  const sql = sqlOf(db);
  const insertMember = sql.run<[listingId: string, itemId: string, position: number]>(
    `INSERT INTO listing_items (listing_id, inventory_item_id, position) VALUES (?, ?, ?)`,
  );
  const selectOne = sql.one<ListingWithCardRow, [string, string, number]>(
    `${SELECT_WITH_CARD} WHERE t.id = ? AND t.seller_id = ? AND t.test = ?`,
  );
  const selectAllOfSeller = sql.all<ListingWithCardRow, [string, number]>(
    `${SELECT_WITH_CARD} WHERE t.seller_id = ? AND t.test = ? ORDER BY t.seq`,
  );
  const selectMembers = sql.all<{ inventory_item_id: string }>(
    `SELECT inventory_item_id FROM listing_items WHERE listing_id = ? ORDER BY position`,
  );
  const countLive = sql.one<{ n: number }, [string, number]>(
    `SELECT COUNT(*) AS n FROM listings WHERE seller_id = ? AND test = ? AND status = 'active'`,
  );
  const selectNthLive = sql.one<{ id: string }, [string, number, number]>(
    `SELECT id FROM listings WHERE seller_id = ? AND test = ? AND status = 'active'
     ORDER BY seq DESC LIMIT 1 OFFSET ?`,
  );

  return {
    insert(row: Omit<ListingRow, 'seq'>, memberIds: readonly string[]): void {
      sql.insert('listings', row);
      memberIds.forEach((itemId, position) => insertMember(row.id, itemId, position));
    },
    get: (id: string, scope: Scope) => selectOne(id, ...scopeParams(scope)),
    getById: sql.one<ListingWithCardRow>(`${SELECT_WITH_CARD} WHERE t.id = ?`),
    /** Every listing of a seller in one mode, oldest first (the control API's ground truth). */
    allOfSeller: (sellerId: string, test: boolean) => selectAllOfSeller(sellerId, test ? 1 : 0),
    findByHandle: sql.one<ListingRow>(`SELECT * FROM listings WHERE handle = ?`),
    members: (listingId: string) => selectMembers(listingId).map((r) => r.inventory_item_id),
    latestForItem: sql.one<ListingRow>(
      `SELECT l.* FROM listings l JOIN listing_items m ON m.listing_id = l.id
       WHERE m.inventory_item_id = ? ORDER BY l.seq DESC LIMIT 1`,
    ),
    countLive: (scope: Scope) => countLive(...scopeParams(scope))!.n,
    update(id: string, patch: ListingPatch): void {
      sql.update('listings', UPDATABLE, id, patch);
    },
    page(request: PageRequest): Page<ListingWithCardRow> {
      return sql.page(SELECT_WITH_CARD, request);
    },
    windowsEndedBy: sql.all<ListingRow, [now: number]>(
      `SELECT * FROM listings WHERE status = 'active' AND window_ends_at IS NOT NULL
       AND window_ends_at <= ? ORDER BY window_ends_at, seq`,
    ),
    // `+status`: the due instant's index (listings_schedule), not the status one, which made this
    // once-a-second query scan every draft.
    scheduledDueBy: sql.all<ListingRow, [now: number]>(
      `SELECT * FROM listings WHERE scheduled_go_live_at IS NOT NULL AND scheduled_go_live_at <= ?
       AND +status = 'draft' AND unavailable_reason = 'scheduled' ORDER BY scheduled_go_live_at, seq`,
    ),
    /** The id of the n-th newest live listing (used by the demo simulation to pick a sale). */
    nthLive: (scope: Scope, n: number) => selectNthLive(...scopeParams(scope), n)?.id,
  };
}
