import type { Harness } from '../../support/sandbox-harness';

/**
 * A test's own ground truth: every record of a collection read over HTTP, page after page by
 * the `Link` header, without the dashboard's client (so a figure is never checked against itself).
 */
export async function readAll<T>(
  harness: Harness,
  token: string,
  path: string,
  envelope: string,
): Promise<T[]> {
  const rows: T[] = [];
  let next: string | undefined = `${path}${path.includes('?') ? '&' : '?'}limit=250`;
  while (next) {
    const response = await harness.api(next, { token });
    if (!response.ok) throw new Error(`${path}: ${response.status}`);
    const body = (await response.json()) as Record<string, T[]>;
    rows.push(...body[envelope]!);
    next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
  }
  return rows;
}

/** The demo orders as the API documents them (the fields the figures are computed from). */
export interface OrderTruth {
  id: string;
  name: string;
  cancelled_at: string | null;
  subtotal_price: string;
  total_refunded: string;
  svc_sold_at: string;
  line_items: { product_id: string; inventory_item_id: string; quantity: number }[];
  svc_seller_shipment: { status: string; ship_by: string | null };
  svc_payout: {
    status: string;
    amount: string | null;
    platform_fee: string;
    paid_at: string | null;
  };
}

export interface ListingTruth {
  id: string;
  status: string;
  price: string;
  listed_at: string | null;
  card: { id: string; grader: string; grade: string; category: string };
}

/** Dollars to cents, the way a person adds up money: exactly. */
export const cents = (amount: string) => Math.round(Number(amount) * 100);

/** US dollars as the pages print them. */
export const usd = (c: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(c / 100);
