import type { Store } from '../store';
import type { OrderRow } from '../store/rows';
import { emitOrderEvent, emitProductEvent } from './events';
import { refreshLevels } from './levels';
import { changeListing, type MarketContext } from './listings';
import { DAY_MS } from '../platform/time';

/** A marketplace rule (or a control call) refused the action; `status` is the control answer. */
export class MarketError extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

export const PLATFORM_FEE_BP = 1200;
export const PROMOTION_FEE_BP = 300;
export const TAX_BP = 725;

/** A basis-point share of whole cents, rounded half up: the fee and tax rule, in integers. */
function percentOf(cents: number, basisPoints: number): number {
  return Math.floor((cents * basisPoints + 5000) / 10000);
}
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** The lifecycle stages after a sale, in order; `stage` on an order counts how many are done. */
export const ORDER_STAGES = [
  'shipped_to_hub',
  'delivered_to_hub',
  'authenticated',
  'shipped_to_buyer',
  'delivered',
  'payout_released',
] as const;

/** The time each stage stamps on the order. */
const STAGE_STAMPS: Record<(typeof ORDER_STAGES)[number], keyof OrderRow> = {
  shipped_to_hub: 'shipped_at',
  delivered_to_hub: 'delivered_to_hub_at',
  authenticated: 'authenticated_at',
  shipped_to_buyer: 'buyer_shipped_at',
  delivered: 'buyer_delivered_at',
  payout_released: 'paid_at',
};

/** The order by id, or a 404. */
function orderOf(store: Store, orderId: string): OrderRow {
  const order = store.orders.getById(orderId);
  if (!order) throw new MarketError(404, `order ${orderId} not found`);
  return order;
}

export type SaleVia = 'checkout' | 'offer';

/** A new order's lifecycle fields: paid and sold at `now`, nothing done since. */
export function soldAt(now: number) {
  return {
    financial_status: 'paid',
    stage: 0,
    cancel_reason: null,
    cancelled_at: null,
    closed_at: null,
    sold_at: now,
    ship_by: now + 3 * DAY_MS,
    cancel_after: now + 7 * DAY_MS,
    tracking_number: null,
    carrier_code: 'usps',
    label_url: null,
    shipped_at: null,
    delivered_to_hub_at: null,
    authenticated_at: null,
    buyer_shipped_at: null,
    buyer_delivered_at: null,
    paid_at: null,
    payout_cents: null,
    created_at: now,
    updated_at: now,
  } satisfies Partial<OrderRow>;
}

/** A buyer buys an active listing: it is archived as sold and an order is created, paid. */
export function sellListing(ctx: MarketContext, listingId: string, via: SaleVia) {
  const { store, ids, now } = ctx;
  const listing = store.listings.getById(listingId);
  if (!listing) throw new MarketError(404, `listing ${listingId} not found`);
  if (listing.status !== 'active') {
    throw new MarketError(409, `listing ${listingId} is ${listing.status}, not for sale`);
  }
  let name: string;
  do name = `SL-${ids.chars(6, CODE_ALPHABET)}`;
  while (store.orders.nameTaken(name));
  const subtotal =
    via === 'offer' && listing.minimum_offer_cents !== null
      ? Math.max(listing.minimum_offer_cents, percentOf(listing.price_cents, 9000))
      : listing.price_cents;
  const feeBp = PLATFORM_FEE_BP + (listing.promoted ? PROMOTION_FEE_BP : 0);
  const order: Omit<OrderRow, 'seq'> = {
    id: ids.id('ord'),
    seller_id: listing.seller_id,
    test: listing.test,
    name,
    order_number: store.orders.nextOrderNumber(listing.seller_id),
    listing_id: listing.id,
    line_item_id: ids.id('li'),
    sale_channel: via === 'offer' ? 'accepted_offer' : 'web_checkout',
    delivery_method: 'ship_to_hub',
    subtotal_cents: subtotal,
    tax_cents: percentOf(subtotal, TAX_BP),
    refunded_cents: 0,
    fee_cents: percentOf(subtotal, feeBp),
    ...soldAt(now),
  };
  store.transaction(() => {
    store.orders.insert(order);
    changeListing(ctx, listing.id, {
      status: 'archived',
      unavailable_reason: 'sold',
      window_ends_at: null,
    });
    emitOrderEvent(store, ids, now, 'orders/create', order.id);
  });
  return store.orders.getById(order.id)!;
}

/** Moves an order to its next lifecycle stage. */
export function advanceOrder(ctx: MarketContext, orderId: string) {
  const { store, ids, now } = ctx;
  const order = orderOf(store, orderId);
  if (order.cancelled_at !== null) throw new MarketError(409, `order ${order.name} is cancelled`);
  if (order.stage >= ORDER_STAGES.length) {
    throw new MarketError(409, `order ${order.name} has no next stage: it is paid out`);
  }
  const stage = order.stage + 1;
  const done = ORDER_STAGES[stage - 1]!;
  const patch: Partial<OrderRow> = { stage, updated_at: now, [STAGE_STAMPS[done]]: now };
  if (done === 'shipped_to_hub') {
    patch.tracking_number = `9400${ids.chars(18, '0123456789')}`;
    patch.label_url = `https://labels.sandbox.invalid/${order.name}.pdf`;
  } else if (done === 'payout_released') {
    patch.closed_at = now;
    patch.payout_cents = Math.max(0, order.subtotal_cents - order.fee_cents - order.refunded_cents);
  }
  store.transaction(() => {
    store.orders.update(order.id, patch);
    refreshLevels(store, store.listings.members(order.listing_id), now);
    emitOrderEvent(store, ids, now, 'orders/updated', order.id);
  });
  return store.orders.getById(order.id)!;
}

export const CANCEL_REASONS = ['buyer', 'seller', 'admin', 'payment_failed', 'timeout'] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];

/** Cancels an order before it ships to the buyer; the buyer is refunded (or the payment voided). */
export function cancelOrder(ctx: MarketContext, orderId: string, reason: CancelReason) {
  const { store, ids, now } = ctx;
  const order = orderOf(store, orderId);
  if (order.cancelled_at !== null)
    throw new MarketError(409, `order ${order.name} is already cancelled`);
  if (order.stage >= 4) {
    throw new MarketError(
      409,
      `order ${order.name} has shipped to the buyer and cannot be cancelled`,
    );
  }
  const total = order.subtotal_cents + order.tax_cents;
  const voided = reason === 'payment_failed';
  store.transaction(() => {
    store.orders.update(order.id, {
      cancelled_at: now,
      cancel_reason: reason,
      financial_status: voided ? 'voided' : 'refunded',
      refunded_cents: voided ? 0 : total,
      updated_at: now,
    });
    store.listings.update(order.listing_id, {
      status: 'archived',
      unavailable_reason: 'order_cancelled',
      updated_at: now,
    });
    refreshLevels(store, store.listings.members(order.listing_id), now);
    emitOrderEvent(store, ids, now, 'orders/cancelled', order.id);
    emitProductEvent(store, ids, now, 'products/update', order.listing_id);
  });
  return store.orders.getById(order.id)!;
}

/** Refunds part or all of what remains of a paid order. */
export function refundOrder(ctx: MarketContext, orderId: string, amountCents: number | null) {
  const { store, ids, now } = ctx;
  const order = orderOf(store, orderId);
  if (order.cancelled_at !== null) throw new MarketError(409, `order ${order.name} is cancelled`);
  const total = order.subtotal_cents + order.tax_cents;
  const remaining = total - order.refunded_cents;
  if (remaining <= 0) throw new MarketError(409, `order ${order.name} is already fully refunded`);
  const amount = amountCents ?? remaining;
  if (amount <= 0 || amount > remaining) {
    throw new MarketError(
      400,
      `refund amount must be between 0.01 and what remains (${remaining} cents)`,
    );
  }
  const refunded = order.refunded_cents + amount;
  store.transaction(() => {
    store.orders.update(order.id, {
      refunded_cents: refunded,
      financial_status: refunded >= total ? 'refunded' : 'partially_refunded',
      updated_at: now,
    });
    emitOrderEvent(store, ids, now, 'orders/updated', order.id);
  });
  return store.orders.getById(order.id)!;
}
