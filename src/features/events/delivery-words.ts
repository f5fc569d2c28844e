import { ownEntry } from '../../shared/own-entry';
import { isRecord } from '../../shared/is-record';
import { readOrderPayload, readProductPayload } from '../../client/webhook-payloads';
import { orderStage, stageLabel } from '../../api/orders/order-stage';
import { formatMoney } from '../../lib/format';
import { centsOf } from '../../shared/money';

/** A delivery as what happened, in the seller's words: a headline and the card it is about. */
export interface DeliveryWords {
  what: string;
  /** The card, its grade and the order code or price, when the body was kept. */
  about: string | undefined;
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value : undefined);

/** "1986 Fleer Michael Jordan PSA 6": the title, then the grader and grade the card carries. */
function cardName(title: string | undefined, card: unknown): string | undefined {
  const grading = isRecord(card) ? [text(card.grader), text(card.grade)].filter(Boolean) : [];
  const name = [title, ...grading].filter(Boolean).join(' ');
  return name || undefined;
}

const FAMILY_WORDS: Record<string, string> = {
  orders: 'An order changed',
  products: 'A listing changed',
};

/** The price of a product body, for "before → after" between two deliveries of one listing. */
export function productPrice(payload: unknown): string | undefined {
  return readProductPayload(payload)?.variants?.[0]?.price ?? undefined;
}

/** The listing a body is about: a product's id, or an order line's listing. */
export function listingIdOf(payload: unknown): string | undefined {
  if (!isRecord(payload)) return undefined;
  const line = Array.isArray(payload.line_items) ? (payload.line_items[0] as unknown) : undefined;
  if (isRecord(line) && typeof line.product_id === 'string') return line.product_id;
  return typeof payload.id === 'string' && 'variants' in payload ? payload.id : undefined;
}

/** A delivery in words; `previousPrice` gives before → after, `knownName` the slab's full name. */
export function deliveryWords(
  topic: string | undefined,
  payload: unknown,
  { previousPrice, knownName }: { previousPrice?: string; knownName?: string } = {},
): DeliveryWords {
  const family = topic?.split('/')[0] ?? '';
  if (payload !== undefined && family === 'orders') {
    const order = readOrderPayload(payload);
    const line = order?.line_items?.[0];
    const code = order?.name ?? order?.svc_order_code;
    const name = knownName ?? cardName(line?.title ?? undefined, undefined);
    const about = [name, code && `as ${code}`].filter(Boolean).join(' ') || undefined;
    if (topic === 'orders/create') return { what: 'Sold', about };
    if (topic === 'orders/cancelled') return { what: 'Order cancelled', about };
    // An update does not say what moved: say where the order stands now, and any refund.
    const stage = order ? stageLabel(orderStage(order)).toLowerCase() : undefined;
    const refunded = (centsOf(order?.total_refunded) ?? 0) > 0 ? order?.total_refunded : undefined;
    const now = [stage && `now ${stage}`, refunded && `${formatMoney(refunded)} refunded`]
      .filter(Boolean)
      .join(', ');
    return { what: 'Order updated', about: [about, now].filter(Boolean).join(' · ') || undefined };
  }
  if (payload !== undefined && family === 'products') {
    const product = readProductPayload(payload);
    const raw = isRecord(payload) ? payload : {};
    const name = knownName ?? cardName(product?.title ?? undefined, raw.svc_card);
    const price = product?.variants?.[0]?.price ?? undefined;
    if (topic === 'products/create')
      return {
        what: 'Listing created',
        about: [name, price && `at ${formatMoney(price)}`].filter(Boolean).join(' '),
      };
    if (topic === 'products/delete') return { what: 'Listing deactivated', about: name };
    if (product?.svc_unavailable_reason === 'sold') return { what: 'Listing sold', about: name };
    if (price !== undefined && previousPrice !== undefined && price !== previousPrice)
      return {
        what: 'Price changed',
        about: `${name ?? 'a listing'} ${formatMoney(previousPrice)} → ${formatMoney(price)}`,
      };
    return { what: 'Listing updated', about: name };
  }
  return { what: ownEntry(FAMILY_WORDS, family) ?? 'Something changed', about: undefined };
}
