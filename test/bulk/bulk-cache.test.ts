import { describe, expect, it } from 'vitest';
import type { ListingRead } from '../../src/client';
import { patchListing } from '../../src/api/listings/write-answer';
import type { WriteResult } from '../../src/features/listings/bulk-edit/jobs/job-runner';

/** A list-view row as the default sandbox serves it: the documented fields plus the terms. */
const full: ListingRead = {
  id: 'lst_1',
  title: 'Old title',
  status: 'active',
  price: '100.00',
  is_lot: false,
  card_count: 1,
  accepts_offers: true,
  created_at: '2026-06-01T00:00:00.000Z',
  listed_at: '2026-06-01T00:00:00.000Z',
  description: 'Old description',
  unavailable_reason: null,
  can_reactivate: false,
  minimum_offer: '90.00',
  accepts_trades: false,
  auto_relist: false,
  promoted: false,
  duration_hours: 720,
  updated_at: '2026-07-01T00:00:00.000Z',
};

/** The same row from a server that sends only what the spec documents for the list view. */
const documented: ListingRead = {
  id: 'lst_1',
  title: 'Old title',
  status: 'active',
  price: '100.00',
  is_lot: false,
  card_count: 1,
  accepts_offers: true,
  created_at: '2026-06-01T00:00:00.000Z',
  listed_at: '2026-06-01T00:00:00.000Z',
};

const put: WriteResult = {
  method: 'PUT',
  listingId: 'lst_1',
  body: { price: '80.00', accepts_trades: true, duration_hours: 336, description: 'New' },
  listing: {
    id: 'lst_1',
    title: 'Old title',
    status: 'active',
    price: '80.00',
    minimum_offer: null,
    accepts_offers: true,
  },
};

describe('the cache row after a landed write', () => {
  it('takes the PUT response and the fields the PUT sent', () => {
    const next = patchListing(full, put, new Date('2026-07-02T00:00:00.000Z'));
    expect(next.price).toBe('80.00');
    expect(next.minimum_offer).toBeNull(); // cleared by the API's rule, as the response says
    expect(next.accepts_trades).toBe(true);
    expect(next.duration_hours).toBe(336);
    expect(next.description).toBe('New');
    expect(next.updated_at).toBe('2026-07-02T00:00:00.000Z');
    expect(full.price).toBe('100.00'); // the old row is untouched
  });

  it('invents no term a documented-only server does not show', () => {
    const next = patchListing(documented, put, new Date('2026-07-02T00:00:00.000Z'));
    expect(next.price).toBe('80.00');
    expect(next.accepts_offers).toBe(true);
    for (const hidden of [
      'minimum_offer',
      'accepts_trades',
      'duration_hours',
      'description',
      'updated_at',
    ] as const) {
      expect(next[hidden], hidden).toBeUndefined();
    }
  });

  it('leaves a deactivated listing archived with its reason', () => {
    const next = patchListing(documented, {
      method: 'DELETE',
      listingId: 'lst_1',
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
    expect(next.unavailable_reason).toBe('deactivated_by_seller');
    expect(next.can_reactivate).toBe(true);
  });
});
