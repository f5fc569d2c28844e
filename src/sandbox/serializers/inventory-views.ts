import { VAULT_LOCATION_ID, sellerLocationId } from '../domain/levels';
import { formatCents } from '../../shared/money';
import { isoTime } from '../platform/time';
import type { InventoryItemRow, InventoryLevelRow } from '../store/rows';

export function inventoryItemView(row: InventoryItemRow) {
  return {
    id: row.id,
    sku: row.cert_number,
    cost: formatCents(row.cost_cents),
    tracked: true,
    requires_shipping: true,
    created_at: isoTime(row.created_at),
    updated_at: isoTime(row.updated_at),
    svc_cert_number: row.cert_number,
    svc_grader: row.grader,
    svc_grade: row.grade,
    svc_title: row.title,
    svc_player: row.player ?? '',
    svc_year: row.year === null ? '' : String(row.year),
    svc_card_set: row.card_set ?? 'Unknown',
    svc_category: row.category ?? 'non_sport',
  };
}

export function inventoryLevelView(row: InventoryLevelRow) {
  return {
    inventory_item_id: row.inventory_item_id,
    location_id: row.location_id,
    available: row.available,
    updated_at: isoTime(row.updated_at),
    svc_unavailable_reason: row.reason,
    svc_reason_detail: row.reason_detail,
    svc_can_reactivate: row.can_reactivate === 1,
  };
}

/** The two locations, computed from the caller: the seller's own, and the marketplace hub. */
export function locationsFor(sellerId: string) {
  return [
    {
      id: sellerLocationId(sellerId),
      name: 'Your location',
      active: true,
      svc_location_type: 'seller',
      svc_seller_controlled: true,
      svc_writable: false,
    },
    {
      id: VAULT_LOCATION_ID,
      name: 'Marketplace hub',
      country_code: 'US',
      active: true,
      svc_location_type: 'vault',
      svc_seller_controlled: false,
      svc_writable: false,
    },
  ];
}
