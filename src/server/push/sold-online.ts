import { isRecord } from '../bounded-json';

/**
 * What the replica's rows say of an online sale, read by the spec's documented fields only: a
 * listing sold is `archived` with reason `sold` (its single view's `unavailable_reason`, a
 * webhook's `svc_unavailable_reason`, kept on the row as `unavailable_reason`); an order names
 * its listing in `line_items[].product_id`. A list read carries no reason: an archived listing
 * with none is not taken for sold (a seller's own deactivation is archived too), its order tells.
 */

/** Whether the listing row says it sold. */
export function listingSold(body: Record<string, unknown>): boolean {
  return body.status === 'archived' && body.unavailable_reason === 'sold';
}

/** The listings an order sold (none once it is cancelled: the slab is the seller's again). */
export function listingsSoldBy(order: Record<string, unknown>): string[] {
  if (typeof order.cancelled_at === 'string' && order.cancelled_at !== '') return [];
  if (!Array.isArray(order.line_items)) return [];
  const ids: string[] = [];
  for (const line of order.line_items) {
    if (isRecord(line) && typeof line.product_id === 'string') ids.push(line.product_id);
  }
  return ids;
}

/** The card as a listing row names it: its title, cert and grader (null where it does not say). */
export function cardOf(body: Record<string, unknown> | undefined): {
  title: string | null;
  certNumber: string | null;
  grader: string | null;
} {
  const card = isRecord(body?.card) ? body.card : {};
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
  return {
    title: text(body?.title) ?? text(card.title),
    certNumber: text(card.cert_number),
    grader: text(card.grader),
  };
}

/** The card as an order's line names it (its title, the cert as its `sku`). */
export function lineCardOf(
  order: Record<string, unknown>,
  listingId: string,
): { title: string | null; certNumber: string | null } {
  const lines = Array.isArray(order.line_items) ? order.line_items : [];
  const line = lines.find((item) => isRecord(item) && item.product_id === listingId);
  if (!isRecord(line)) return { title: null, certNumber: null };
  return {
    title: typeof line.title === 'string' && line.title !== '' ? line.title : null,
    certNumber: typeof line.sku === 'string' && line.sku !== '' ? line.sku : null,
  };
}
