import type { ListingRead } from '../../client';
import { certKey } from '../listings/cert-lookup';
import type { KeptOrder } from '../orders/order-queries';
import { formatCents } from '../../shared/money';

/** A card's identity: grader, grade, title, year and set; the same card only when all agree. */
type CardIdentity = Pick<
  NonNullable<ListingRead['card']>,
  'grader' | 'grade' | 'title' | 'year' | 'set'
>;

/** Spaces and case do not make another card ("1986 Fleer  Michael Jordan" is the same title). */
const plain = (text: string | null | undefined) =>
  text === null || text === undefined ? '' : text.trim().replace(/\s+/g, ' ').toLowerCase();

/** The card's identity as one comparable key, or undefined when grader, grade or title is not shown. */
function cardIdentityKey(card: CardIdentity | undefined): string | undefined {
  if (!card) return undefined;
  const grader = plain(card.grader);
  const grade = plain(card.grade);
  const title = plain(card.title);
  if (!grader || !grade || !title) return undefined;
  const year = card.year === null || card.year === undefined ? '' : String(card.year);
  return [grader, grade, title, year, plain(card.set)].join('\u0000');
}

/** One sale of another slab of the same card and grade. */
export interface CardSale {
  /** The order's id, or the show ledger entry's key. */
  id: string;
  soldAt: string;
  /** What that slab sold for (decimal dollars): the order line's price, or the show's price. */
  price: string;
  /** Where it sold: an order is a marketplace sale; a ledger entry, a sale at that show. */
  where: { kind: 'online' } | { kind: 'show'; showName: string };
}

/** A sale at a show, as the hub's ledger records it. */
export interface LedgerSale {
  key: string;
  listingId: string;
  soldAt: string;
  priceCents: number;
  showName: string;
}

/** At most this many sales are shown: the recent ones are what a dealer prices against. */
export const RECENT_SALES = 5;

/** Recent sales of this card and grade, newest first, from kept orders and the show ledger. */
export function recentSalesOf(
  listing: ListingRead,
  listings: readonly ListingRead[],
  orders: readonly KeptOrder[],
  showSales: readonly LedgerSale[] = [],
  limit = RECENT_SALES,
): CardSale[] {
  const key = cardIdentityKey(listing.card);
  if (key === undefined) return [];
  const ownCert = certKey(listing.card?.cert_number);
  const sameCard = new Set<string>();
  for (const row of listings) {
    if (row.is_lot === true) continue;
    if (ownCert !== '' && certKey(row.card?.cert_number) === ownCert) continue;
    if (cardIdentityKey(row.card) === key) sameCard.add(row.id);
  }
  const sales: CardSale[] = [];
  for (const order of orders) {
    if (order.cancelled_at !== null) continue;
    const soldAt = order.svc_sold_at ?? order.created_at;
    if (!soldAt || Number.isNaN(Date.parse(soldAt))) continue;
    for (const line of order.line_items ?? []) {
      if (line.svc_is_lot === true || !line.price) continue;
      if (line.product_id === undefined || !sameCard.has(line.product_id)) continue;
      sales.push({ id: order.id, soldAt, price: line.price, where: { kind: 'online' } });
    }
  }
  for (const sale of showSales) {
    if (!sameCard.has(sale.listingId) || Number.isNaN(Date.parse(sale.soldAt))) continue;
    sales.push({
      id: sale.key,
      soldAt: sale.soldAt,
      price: formatCents(sale.priceCents),
      where: { kind: 'show', showName: sale.showName },
    });
  }
  sales.sort((a, b) => Date.parse(b.soldAt) - Date.parse(a.soldAt));
  return sales.slice(0, limit);
}
