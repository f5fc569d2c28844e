import type { BulkRow } from '../../src/features/listings/bulk-edit/logic/rows';

let counter = 0;

/** A listing as the bulk editor reads it, with the sale terms overridable. */
export function bulkRow(overrides: Partial<BulkRow> = {}): BulkRow {
  counter++;
  return {
    id: `lst_${counter}`,
    title: `1999 Pokemon Base Set Charizard #${counter}`,
    status: 'active',
    unavailableReason: null,
    canReactivate: true,
    price: '129.99',
    minimumOffer: null,
    acceptsOffers: true,
    acceptsTrades: false,
    autoRelist: false,
    promoted: false,
    durationHours: 720,
    description: 'PSA 9, centred.',
    card: {
      player: 'Charizard',
      certNumber: `4000${counter}`,
      grader: 'PSA',
      grade: '9',
      year: 1999,
      set: 'Base Set',
      category: 'Pokemon',
    },
    isLot: false,
    updatedAt: '2026-07-01T00:00:00.000Z',
    unreadable: [],
    ...overrides,
  };
}
