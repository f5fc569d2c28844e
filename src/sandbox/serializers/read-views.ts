import type { ReadShapes } from '../context';
import type { OrderWithLineRow } from '../store/rows';
import {
  ORDER_ABSENT_UNTIL_SET,
  DOCUMENTED_FIELDS,
  levelWithoutReasonWhileAvailable,
  withoutNulls,
} from './documented-fields';
import { inventoryItemView, inventoryLevelView, locationsFor } from './inventory-views';
import { listingListView, listingSingleView, productView } from './listing-views';
import { orderView } from './order-view';
import { pingView } from './ping-view';
import { projectRecord } from './shape';

type View = Record<string, unknown>;

const FULL = {
  ping: pingView,
  listingList: listingListView,
  listingSingle: listingSingleView,
  product: productView,
  orderList: (row: OrderWithLineRow) => orderView(row, false),
  orderSingle: (row: OrderWithLineRow) => orderView(row, true),
  inventoryItem: inventoryItemView,
  inventoryLevel: inventoryLevelView,
  locations: locationsFor,
};

/** The serializers of every read view of the public API, in one of the two shapes. */
export type ReadViews = {
  [K in keyof typeof FULL]: (
    ...args: Parameters<(typeof FULL)[K]>
  ) => K extends 'locations' ? View[] : View;
};

const fields = DOCUMENTED_FIELDS;

/** An order cut down to its view's documented fields, the narrower reading of the nulls. */
function documentedOrder(view: object, set: typeof fields.orderList): View {
  return withoutNulls(projectRecord(view, set), ORDER_ABSENT_UNTIL_SET);
}

/** The full views cut to the spec's documented fields, the narrower reading where it is open. */
const DOCUMENTED: ReadViews = {
  ping: (...args) => projectRecord(pingView(...args), fields.ping),
  listingList: (row, urls) => projectRecord(listingListView(row, urls), fields.listingList),
  listingSingle: (row, urls) => projectRecord(listingSingleView(row, urls), fields.listingSingle),
  product: (row, urls) => projectRecord(productView(row, urls), fields.product),
  orderList: (row) => documentedOrder(orderView(row, false), fields.orderList),
  orderSingle: (row) => documentedOrder(orderView(row, true), fields.orderSingle),
  inventoryItem: (row) => projectRecord(inventoryItemView(row), fields.inventoryItem),
  inventoryLevel: (row) =>
    levelWithoutReasonWhileAvailable(projectRecord(inventoryLevelView(row), fields.inventoryLevel)),
  locations: (sellerId) =>
    locationsFor(sellerId).map((location) => projectRecord(location, fields.location)),
};

export function readViews(shapes: ReadShapes): ReadViews {
  return shapes === 'documented' ? DOCUMENTED : FULL;
}

/** A webhook's body as delivered: in documented mode cut to the form the matching GET serves. */
export function webhookBody(shapes: ReadShapes, topic: string, payload: string): string {
  if (shapes !== 'documented') return payload;
  const parsed = JSON.parse(payload) as object;
  if (topic.startsWith('products/')) return JSON.stringify(projectRecord(parsed, fields.product));
  return JSON.stringify(documentedOrder(parsed, fields.orderSingle));
}
