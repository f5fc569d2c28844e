import type { ListingFacts as ListingRead, OrderFacts as Order } from './sales-queries';
import { DAY_MS } from './money';
import { centsOf } from '../../shared/money';
import { isCounted } from './order-money';

export type Dimension = 'grader' | 'grade' | 'category' | 'price';

export const DIMENSION_LABELS: Record<Dimension, string> = {
  grader: 'Grader',
  grade: 'Grade',
  category: 'Category',
  price: 'Price band',
};

/** Price bands of the listing's `price`, in dollars: [from, below). */
export const PRICE_BANDS = [
  { label: 'Under $50', below: 5_000 },
  { label: '$50–$99', below: 10_000 },
  { label: '$100–$249', below: 25_000 },
  { label: '$250–$999', below: 100_000 },
  { label: '$1,000 and up', below: Infinity },
] as const;

export function priceBandOf(price: string | undefined): string | undefined {
  if (price === undefined) return undefined;
  const cents = centsOf(price) ?? 0;
  return PRICE_BANDS.find((band) => cents < band.below)?.label;
}

function groupOf(listing: ListingRead, dimension: Dimension): string | undefined {
  if (dimension === 'price') return priceBandOf(listing.price);
  return listing.card?.[dimension] ?? undefined;
}

export interface SellThroughRow {
  group: string;
  /** Listings in the group that were ever listed (a `listed_at`). */
  listed: number;
  /** Of those, listings with an order that was not cancelled (line item `product_id`). */
  sold: number;
  /** sold / listed, 0 to 1. */
  rate: number;
  /** Median whole-and-fractional days from `listed_at` to the order's `svc_sold_at`. */
  medianDaysToSell: number | undefined;
}

export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Each listing's (first, not cancelled) sale time, by listing id (`line_items[0].product_id`). */
export function soldAtByListing(orders: readonly Order[]): Map<string, string> {
  const soldAt = new Map<string, string>();
  for (const order of orders) {
    const listingId = order.line_items?.[0]?.product_id;
    const at = order.svc_sold_at;
    // An order without a readable listing id or sale time sells no listing we can name.
    if (!isCounted(order) || !listingId || at === undefined) continue;
    const seen = soldAt.get(listingId);
    if (seen === undefined || at < seen) soldAt.set(listingId, at);
  }
  return soldAt;
}

/** Sell-through and median days to sell by one dimension; listings never live are left out. */
export function sellThrough(
  listings: readonly ListingRead[],
  soldAt: ReadonlyMap<string, string>,
  dimension: Dimension,
): SellThroughRow[] {
  const groups = new Map<string, { listed: number; sold: number; days: number[] }>();
  for (const listing of listings) {
    if (!listing.listed_at) continue;
    const group = groupOf(listing, dimension);
    if (group === undefined) continue;
    const entry = groups.get(group) ?? { listed: 0, sold: 0, days: [] };
    entry.listed++;
    const sold = soldAt.get(listing.id);
    if (sold !== undefined) {
      entry.sold++;
      entry.days.push((Date.parse(sold) - Date.parse(listing.listed_at)) / DAY_MS);
    }
    groups.set(group, entry);
  }
  const order =
    dimension === 'price'
      ? (a: string, b: string) =>
          PRICE_BANDS.findIndex((x) => x.label === a) - PRICE_BANDS.findIndex((x) => x.label === b)
      : (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });
  return [...groups.entries()]
    .sort(([a], [b]) => order(a, b))
    .map(([group, entry]) => ({
      group,
      listed: entry.listed,
      sold: entry.sold,
      rate: entry.listed === 0 ? 0 : entry.sold / entry.listed,
      medianDaysToSell: median(entry.days),
    }));
}
