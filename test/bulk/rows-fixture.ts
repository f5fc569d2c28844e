import type { CatalogueRow } from '../../src/features/listings/catalogue/catalogue-row';

let counter = 0;

/** A listing as the bulk editor reads it (a catalogue row), with the sale terms overridable. */
export function bulkRow(overrides: Partial<CatalogueRow> = {}): CatalogueRow {
  counter++;
  return {
    id: `lst_${counter}`,
    title: `1999 Pokemon Base Set Charizard #${counter}`,
    status: 'active',
    state: 'active',
    reason: null,
    reasonSource: 'listing',
    canReactivate: true,
    price: 129.99,
    priceText: '129.99',
    minimumOffer: null,
    offers: true,
    trades: false,
    autoRelist: false,
    promoted: false,
    durationHours: 720,
    description: 'PSA 9, centred.',
    player: 'Charizard',
    cert: `4000${counter}`,
    grader: 'PSA',
    grade: '9',
    gradeValue: 9,
    year: 1999,
    set: 'Base Set',
    category: 'Pokemon',
    imageSrc: undefined,
    itemId: undefined,
    isLot: false,
    cardCount: undefined,
    windowEndsAt: undefined,
    createdAt: undefined,
    listedAt: undefined,
    updatedAt: '2026-07-01T00:00:00.000Z',
    unreadable: [],
    search: undefined,
    ...overrides,
  };
}
