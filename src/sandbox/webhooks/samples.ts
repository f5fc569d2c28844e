import type { Topic } from '../domain/events';
import { soldAt } from '../domain/marketplace';
import { orderView } from '../serializers/order-view';
import { productView, type PublicUrls } from '../serializers/listing-views';
import type { ListingWithCardRow, OrderWithLineRow } from '../store/rows';

/** The sample resources that the test button sends: exactly the real shapes, with sample data. */
const SAMPLE_TIME = Date.UTC(2026, 6, 1, 12, 0, 0);

const sampleListing: ListingWithCardRow = {
  seq: 0,
  id: 'lst_sample00000000',
  seller_id: 'slr_sample',
  test: 0,
  title: '1952 Topps Mickey Mantle #311 PSA 8 (sample)',
  description: 'A sample listing sent by the test button.',
  status: 'active',
  unavailable_reason: null,
  price_cents: 125_000_00,
  minimum_offer_cents: null,
  accepts_offers: 1,
  accepts_trades: 0,
  auto_relist: 0,
  promoted: 0,
  duration_hours: 720,
  window_ends_at: SAMPLE_TIME + 720 * 3_600_000,
  scheduled_go_live_at: null,
  is_lot: 0,
  card_count: 1,
  primary_item_id: 'itm_sample00000000',
  images: '[]',
  handle: 'sample-listing',
  created_at: SAMPLE_TIME,
  listed_at: SAMPLE_TIME,
  updated_at: SAMPLE_TIME,
  card_title: '1952 Topps Mickey Mantle #311',
  card_cert_number: '00000000',
  card_grader: 'PSA',
  card_grade: '8',
  card_year: 1952,
  card_set: 'Topps',
  card_category: 'baseball',
  card_player: 'Mickey Mantle',
  card_variant: 'Base',
  member_ids: 'itm_sample00000000',
};

const sampleOrder: OrderWithLineRow = {
  seq: 0,
  id: 'ord_sample00000000',
  seller_id: 'slr_sample',
  test: 0,
  name: 'SL-SAMPLE',
  order_number: 1001,
  listing_id: sampleListing.id,
  line_item_id: 'li_sample00000000',
  sale_channel: 'web_checkout',
  delivery_method: 'ship_to_hub',
  subtotal_cents: 125_000_00,
  tax_cents: 9_062_50,
  refunded_cents: 0,
  fee_cents: 15_000_00,
  ...soldAt(SAMPLE_TIME),
  line_title: sampleListing.title,
  line_sku: sampleListing.card_cert_number,
  line_price_cents: 125_000_00,
  line_inventory_item_id: sampleListing.primary_item_id,
  line_is_lot: 0,
  line_item_ids: sampleListing.primary_item_id,
};

export function samplePayload(topic: Topic, urls: PublicUrls): unknown {
  switch (topic) {
    case 'products/create':
    case 'products/update':
      return productView(sampleListing, urls);
    case 'products/delete':
      return productView(
        {
          ...sampleListing,
          status: 'archived',
          unavailable_reason: 'deactivated_by_seller',
          window_ends_at: null,
        },
        urls,
      );
    case 'orders/create':
    case 'orders/updated':
      return orderView(sampleOrder, true);
    case 'orders/cancelled':
      return orderView(
        {
          ...sampleOrder,
          cancelled_at: SAMPLE_TIME + 3_600_000,
          cancel_reason: 'buyer',
          financial_status: 'refunded',
          refunded_cents: sampleOrder.subtotal_cents + sampleOrder.tax_cents,
        },
        true,
      );
  }
}
