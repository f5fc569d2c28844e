import { describe, expect, it } from 'vitest';
import type { Product } from '../../src/client';
import { patchProduct } from '../../src/features/listings/bulk-edit/bulk-cache';

const product = {
  id: 'lst_1',
  title: 'Old title',
  body_html: 'Old description',
  status: 'active',
  variants: [
    {
      id: 'v1',
      product_id: 'lst_1',
      title: 'Old title',
      price: '100.00',
      sku: '1',
      inventory_item_id: 'c1',
      inventory_quantity: 1,
      svc_minimum_offer: '90.00',
    },
  ],
  svc_unavailable_reason: null,
  svc_can_reactivate: true,
  svc_minimum_offer: '90.00',
  svc_accepts_offers: true,
  svc_accepts_trades: false,
  svc_auto_relist: false,
  svc_promoted: false,
  svc_duration_hours: 720,
  updated_at: '2026-07-01T00:00:00.000Z',
} as unknown as Product; // only the fields the patch reads and writes

describe('the cache row after a landed write', () => {
  it('takes the PUT response and the fields the PUT sent', () => {
    const next = patchProduct(
      product,
      {
        method: 'PUT',
        listingId: 'lst_1',
        write: {
          method: 'PUT',
          key: 'k',
          done: true,
          body: { price: '80.00', accepts_trades: true, duration_hours: 336, description: 'New' },
        },
        listing: {
          id: 'lst_1',
          title: 'Old title',
          status: 'active',
          price: '80.00',
          minimum_offer: null,
          accepts_offers: true,
        },
      },
      new Date('2026-07-02T00:00:00.000Z'),
    );
    expect(next.variants[0]!.price).toBe('80.00');
    expect(next.svc_minimum_offer).toBeNull(); // cleared by the API's rule, as the response says
    expect(next.variants[0]!.svc_minimum_offer).toBeNull();
    expect(next.svc_accepts_trades).toBe(true);
    expect(next.svc_duration_hours).toBe(336);
    expect(next.body_html).toBe('New');
    expect(next.updated_at).toBe('2026-07-02T00:00:00.000Z');
    expect(product.variants[0]!.price).toBe('100.00'); // the old row is untouched
  });

  it('leaves a deactivated listing archived with its reason', () => {
    const next = patchProduct(product, {
      method: 'DELETE',
      listingId: 'lst_1',
      write: { method: 'DELETE', key: 'k', done: true },
      listing: {
        id: 'lst_1',
        title: 'Old title',
        status: 'archived',
        unavailable_reason: 'deactivated_by_seller',
        can_reactivate: true,
        price: '100.00',
      },
    });
    expect(next.status).toBe('archived');
    expect(next.svc_unavailable_reason).toBe('deactivated_by_seller');
  });
});
