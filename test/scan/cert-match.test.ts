import { describe, expect, it } from 'vitest';
import type { InventoryItem, ListingRead } from '../../src/client';
import { certKey, matchCert } from '../../src/api/listings/cert-lookup';
import type { KeptOrder } from '../../src/api/orders/order-queries';

const listing = (
  id: string,
  cert: string,
  over: Partial<ListingRead> = {},
  cardId = `item_${id}`,
): ListingRead => ({
  id,
  title: `Card ${id}`,
  status: 'active',
  price: '100.00',
  created_at: '2026-10-01T00:00:00Z',
  listed_at: '2026-10-01T00:00:00Z',
  card: {
    id: cardId,
    title: `Card ${id}`,
    cert_number: cert,
    grader: 'PSA',
    grade: '9',
    year: 1986,
    set: 'Fleer',
    category: 'basketball',
  },
  ...over,
});

const item = (id: string, cert: string): InventoryItem => ({ id, svc_cert_number: cert });

const order = (
  id: string,
  line: { product_id: string; inventory_item_id: string; sku: string },
  over: Partial<KeptOrder> = {},
): KeptOrder => ({
  id,
  name: `#${id}`,
  svc_order_code: `SL-${id}`,
  created_at: '2026-03-03T12:00:00Z',
  svc_sold_at: '2026-03-03T12:00:00Z',
  cancelled_at: null,
  line_items: [
    {
      id: `line_${id}`,
      title: 'Sold card',
      quantity: 1,
      price: '100.00',
      svc_inventory_item_ids: [],
      svc_is_lot: false,
      ...line,
    },
  ],
  ...over,
});

describe('certKey', () => {
  it('compares digits only, leading zeros off', () => {
    expect(certKey('0082432146')).toBe(certKey('82432146'));
    expect(certKey('824 321-46')).toBe('82432146');
    expect(certKey(undefined)).toBe('');
  });
});

describe('matchCert: a cert in the kept listings, inventory and orders', () => {
  it('finds the listing holding the cert, padded or not, and flags nothing when it is alone', () => {
    const rows = [listing('a', '11111111'), listing('b', '0082432146')];
    const match = matchCert('82432146', rows, [item('item_b', '82432146')], []);
    expect(match.listing?.id).toBe('b');
    expect(match.otherListings).toEqual([]);
    expect(match.sales).toEqual([]);
  });

  it('holds nothing for a cert not in the catalogue', () => {
    const match = matchCert('99999999', [listing('a', '11111111')], [], []);
    expect(match.listing).toBeUndefined();
    expect(match.items).toEqual([]);
  });

  it('prefers a live listing to a draft and to an ended one', () => {
    const rows = [
      listing('old', '12345678', { status: 'archived', created_at: '2026-11-01T00:00:00Z' }),
      listing('draft', '12345678', { status: 'draft', created_at: '2026-11-02T00:00:00Z' }),
      listing('live', '12345678', { status: 'active', created_at: '2026-10-01T00:00:00Z' }),
    ];
    const match = matchCert('12345678', rows, [], []);
    expect(match.listing?.id).toBe('live');
    expect(match.otherListings.map((row) => row.id).sort()).toEqual(['draft', 'old']);
  });

  it('flags a cert sold before under another listing, with the order code and date', () => {
    const rows = [
      listing('sold', '12345678', { status: 'archived', unavailable_reason: 'sold' }, 'item_1'),
      listing('now', '12345678', {}, 'item_2'),
    ];
    const orders = [
      order('4F2K9Q', { product_id: 'sold', inventory_item_id: 'item_1', sku: '12345678' }),
    ];
    const match = matchCert('12345678', rows, [], orders);
    expect(match.listing?.id).toBe('now');
    expect(match.otherListings).toEqual([]);
    expect(match.sales).toEqual([
      {
        orderId: '4F2K9Q',
        code: 'SL-4F2K9Q',
        soldAt: '2026-03-03T12:00:00Z',
        listingId: 'sold',
        title: 'Sold card',
      },
    ]);
  });

  it('matches a sale by its line sku even when the listing is not kept, and skips cancelled orders', () => {
    const orders = [
      order('A', { product_id: 'gone', inventory_item_id: 'x', sku: '0012345678' }),
      order(
        'B',
        { product_id: 'gone2', inventory_item_id: 'y', sku: '12345678' },
        { cancelled_at: '2026-03-04T00:00:00Z' },
      ),
    ];
    const match = matchCert('12345678', [], [], orders);
    expect(match.sales.map((sale) => sale.orderId)).toEqual(['A']);
  });

  it('shows the latest sold listing when every listing of the cert sold', () => {
    const rows = [listing('sold', '12345678', { status: 'archived', unavailable_reason: 'sold' })];
    const match = matchCert('12345678', rows, [], []);
    expect(match.listing?.id).toBe('sold');
    expect(match.otherListings).toEqual([]);
  });

  it('counts every inventory card with the cert (the same number twice)', () => {
    const match = matchCert(
      '12345678',
      [listing('a', '12345678', {}, 'i1')],
      [item('i1', '12345678'), item('i2', '012345678'), item('i3', '87654321')],
      [],
    );
    expect(match.items.map((row) => row.id)).toEqual(['i1', 'i2']);
  });
});
