import { describe, expect, it } from 'vitest';
import { checkPackedSlab, type PackedSlabs } from '../../src/features/orders/pack-check';
import type { KeptOrder } from '../../src/api/orders/order-queries';

const order = (id: string, sku: string, title: string): KeptOrder => ({
  id,
  name: `#${id}`,
  line_items: [
    {
      id: `line_${id}`,
      product_id: `p_${id}`,
      title,
      sku,
      quantity: 1,
      price: '10.00',
      inventory_item_id: `i_${id}`,
      svc_inventory_item_ids: [],
      svc_is_lot: false,
    },
  ],
});

const box = [
  order('1', '82432146', '1986 Fleer Jordan PSA 6'),
  order('2', '0012345003', '2017 Prizm Mahomes BGS 9.5'),
];
const none: PackedSlabs = new Map();

describe('checkPackedSlab: a scanned slab against the open orders of a box', () => {
  it('ticks off the order whose cert was scanned, as a URL or padded digits', () => {
    expect(checkPackedSlab('https://www.psacard.com/cert/82432146', box, none, undefined)).toEqual({
      kind: 'packed',
      orderId: '1',
      message: 'Right card: 1986 Fleer Jordan PSA 6, cert 82432146.',
    });
    expect(checkPackedSlab('12345003', box, none, undefined)).toMatchObject({
      kind: 'packed',
      orderId: '2',
    });
  });

  it('refuses a wrong slab, naming the card the next order needs', () => {
    expect(checkPackedSlab('11112222', box, none, undefined)).toEqual({
      kind: 'refused',
      message:
        'Wrong card: this order is 1986 Fleer Jordan PSA 6, cert 82432146. The slab scanned, cert 11112222, is in no order of this box.',
    });
    const first: PackedSlabs = new Map([['1', { at: '2026-11-27T10:00:00Z', cert: '82432146' }]]);
    expect(checkPackedSlab('11112222', box, first, undefined).message).toMatch(
      /^Wrong card: this order is 2017 Prizm Mahomes BGS 9.5, cert 0012345003\./,
    );
  });

  it('refuses a slab scanned twice, and a code that is not a cert', () => {
    const first: PackedSlabs = new Map([['1', { at: '2026-11-27T10:00:00Z', cert: '82432146' }]]);
    expect(checkPackedSlab('82432146', box, first, undefined)).toEqual({
      kind: 'refused',
      message: 'Cert 82432146 is ticked off already (1986 Fleer Jordan PSA 6).',
    });
    expect(checkPackedSlab('SL-4F2K9Q', box, none, undefined)).toMatchObject({
      kind: 'refused',
      message: expect.stringMatching(/^Read “SL-4F2K9Q”: not a cert number\. This order is /),
    });
  });
});
