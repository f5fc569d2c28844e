import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { InventoryItem, ListingRead } from '../../client';
import { useApiClient } from '../api-context';
import { inventoryItemsQuery } from '../inventory/inventory-queries';
import { ordersQuery, type KeptOrder } from '../orders/order-queries';
import { catalogueQuery } from './catalogue-query';

/** A cert as compared: digits only, leading zeros off, so label, typing and record meet. */
export function certKey(cert: string | null | undefined): string {
  return (cert ?? '').replace(/\D/g, '').replace(/^0+(?=\d)/, '');
}

/** One sale of a card with this cert, as an order records it. */
export interface CertSale {
  orderId: string;
  /** The order's code (`SL-4F2K9Q`), or its name when the code was not shown. */
  code: string;
  soldAt: string | undefined;
  listingId: string | undefined;
  title: string | undefined;
}

/** What the seller's records say of a cert. */
export interface CertMatch {
  cert: string;
  /** The listing the counter view shows: one still on hand first, else the latest one. */
  listing: ListingRead | undefined;
  /** Other listings of the same cert not sold: the same number in stock twice. */
  otherListings: ListingRead[];
  /** Cards in inventory with this cert (a listing's card is one of them). */
  items: InventoryItem[];
  /** Sales of this cert (orders not cancelled), newest first. */
  sales: CertSale[];
}

/** Whether a listing's card went to a buyer: archived as sold, or named by an order. */
export function isSoldListing(listing: ListingRead, soldIds: ReadonlySet<string>): boolean {
  return soldIds.has(listing.id) || listing.unavailable_reason === 'sold';
}

/** Live first, then drafts, then anything else not sold; newest first within each. */
function onHandRank(listing: ListingRead): number {
  if (listing.status === 'active') return 0;
  if (listing.status === 'draft') return 1;
  return 2;
}

const newestFirst = (a: string | undefined, b: string | undefined) =>
  (b ?? '').localeCompare(a ?? '');

/** Finds a cert in the kept catalogue, inventory and orders; pure, on rows the caller holds. */
export function matchCert(
  cert: string,
  listings: readonly ListingRead[],
  items: readonly InventoryItem[],
  orders: readonly KeptOrder[],
): CertMatch {
  const key = certKey(cert);
  const mine = listings.filter((row) => certKey(row.card?.cert_number) === key);
  const myItems = items.filter((item) => certKey(item.svc_cert_number) === key);
  const itemIds = new Set([
    ...myItems.map((item) => item.id),
    ...mine.map((row) => row.card?.id).filter((id): id is string => Boolean(id)),
  ]);
  const listingIds = new Set(mine.map((row) => row.id));
  const sales: CertSale[] = [];
  for (const order of orders) {
    if (order.cancelled_at !== null && order.cancelled_at !== undefined) continue;
    for (const line of order.line_items ?? []) {
      const named =
        (line.sku !== undefined && certKey(line.sku) === key) ||
        (line.inventory_item_id !== undefined && itemIds.has(line.inventory_item_id)) ||
        (line.svc_inventory_item_ids ?? []).some((id) => itemIds.has(id)) ||
        (line.product_id !== undefined && listingIds.has(line.product_id));
      if (!named) continue;
      sales.push({
        orderId: order.id,
        code: order.svc_order_code || order.name || 'an order',
        soldAt: order.svc_sold_at ?? order.created_at,
        listingId: line.product_id,
        title: line.title,
      });
      break;
    }
  }
  sales.sort((a, b) => newestFirst(a.soldAt, b.soldAt));
  const soldIds = new Set(sales.map((sale) => sale.listingId).filter((id) => id !== undefined));
  const onHand = mine
    .filter((row) => !isSoldListing(row, soldIds))
    .sort((a, b) => onHandRank(a) - onHandRank(b) || newestFirst(a.created_at, b.created_at));
  const listing = onHand[0] ?? [...mine].sort((a, b) => newestFirst(a.created_at, b.created_at))[0];
  return {
    cert,
    listing,
    otherListings: onHand.filter((row) => row !== listing),
    items: myItems,
    sales,
  };
}

/** The cert's match over the kept rows; `ready` once the catalogue is read whole. */
export function useCertLookup(cert: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const catalogue = useQuery(catalogueQuery(client, queryClient));
  const items = useQuery(inventoryItemsQuery(client, queryClient));
  const orders = useQuery(ordersQuery(client, queryClient));
  const match = useMemo(
    () =>
      matchCert(cert, catalogue.data?.rows ?? [], items.data?.rows ?? [], orders.data?.rows ?? []),
    [cert, catalogue.data, items.data, orders.data],
  );
  return {
    match,
    /** Whether "not held" can be said: the catalogue's walk has finished. */
    ready: catalogue.data?.complete === true,
    catalogue,
    items,
    orders,
  };
}
