import { describe, expect, it } from 'vitest';
import {
  applyCatalogueSearch,
  catalogueFacets,
  readCatalogueSearch,
  searchNarrowing,
} from '../../src/features/listings/catalogue/catalogue-filters';
import {
  fillSearchTexts,
  toCatalogueRow,
  type CatalogueRow,
} from '../../src/features/listings/catalogue/catalogue-row';
import type { ListingRead } from '../../src/client';
import {
  newListingDefaults,
  toCreateInput,
  toUpdatePatch,
  withoutReviewHold,
} from '../../src/features/listings/forms/listing-bodies';
import { describeOutcome } from '../../src/features/listings/forms/listing-outcome';
import {
  EditListingForm,
  NewListingForm,
} from '../../src/features/listings/forms/listing-form-schemas';

function row(patch: Partial<CatalogueRow>): CatalogueRow {
  const base: CatalogueRow = {
    id: 'lst_1',
    title: 'Card',
    status: 'active',
    state: 'active',
    reason: null,
    reasonSource: 'listing',
    canReactivate: false,
    itemId: 'itm_1',
    trades: false,
    autoRelist: false,
    durationHours: 720,
    description: '',
    windowEndsAt: null,
    listedAt: '2026-01-01T00:00:00.000Z',
    unreadable: [],
    price: 100,
    priceText: '100.00',
    minimumOffer: null,
    player: 'Someone',
    cert: '123',
    grader: 'PSA',
    grade: '10',
    gradeValue: 10,
    category: 'baseball',
    year: 2020,
    set: 'Set',
    isLot: false,
    cardCount: 1,
    offers: true,
    promoted: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    search: '',
    imageSrc: undefined,
  };
  const merged = { ...base, ...patch };
  merged.search = `${merged.title} ${merged.player} ${merged.cert}`.toLowerCase();
  return merged;
}

describe('catalogue search state', () => {
  it('reads the URL, dropping malformed values instead of failing', () => {
    const search = readCatalogueSearch(
      new URLSearchParams('q=ohtani&offers=maybe&sort=price&dir=up&lot=yes'),
    );
    expect(search).toEqual({
      q: 'ohtani',
      offers: undefined,
      sort: 'price',
      dir: undefined,
      lot: 'yes',
    });
  });

  it('filters by every facet and every search word, and sorts', () => {
    const rows = [
      row({ id: 'a', player: 'Shohei Ohtani', price: 300, grader: 'PSA' }),
      row({ id: 'b', player: 'Shohei Ohtani', price: 100, grader: 'BGS', offers: false }),
      row({ id: 'c', player: 'Mike Trout', price: 200, isLot: true, status: 'draft' }),
    ];
    const ids = (search: Record<string, string>) =>
      applyCatalogueSearch(rows, readCatalogueSearch(new URLSearchParams(search))).map((r) => r.id);
    expect(ids({ q: 'ohtani shohei' })).toEqual(['a', 'b']);
    expect(ids({ q: 'ohtani', grader: 'BGS' })).toEqual(['b']);
    expect(ids({ offers: 'no' })).toEqual(['b']);
    expect(ids({ lot: 'yes' })).toEqual(['c']);
    expect(ids({ status: 'draft' })).toEqual(['c']);
    expect(ids({ sort: 'price' })).toEqual(['b', 'c', 'a']);
    expect(ids({ sort: 'price', dir: 'desc' })).toEqual(['a', 'c', 'b']);
  });

  it('narrows the last result while typing on, and searches anew when the search widens', () => {
    const rows = [
      row({ id: 'a', player: 'Shohei Ohtani', price: 300 }),
      row({ id: 'b', player: 'Mike Trout', price: 100 }),
      row({ id: 'c', player: 'Mookie Betts', price: 200 }),
    ];
    const ids = (search: Record<string, string>) =>
      searchNarrowing(rows, readCatalogueSearch(new URLSearchParams(search))).map((r) => r.id);
    expect(ids({ q: 'm', sort: 'price' })).toEqual(['b', 'c']);
    expect(ids({ q: 'mo', sort: 'price' })).toEqual(['c']);
    expect(ids({ q: 'm', sort: 'price' })).toEqual(['b', 'c']);
    expect(ids({ q: 'm', sort: 'price', dir: 'desc' })).toEqual(['c', 'b']);
    expect(ids({ q: 'o' })).toEqual(['a', 'b', 'c']);
    expect(ids({ q: 'oh' })).toEqual(['a']);
    expect(ids({})).toEqual(['a', 'b', 'c']);
  });

  it('answers a search made again (Backspace) from memory, and forgets it when the rows change', () => {
    const rows = [
      row({ id: 'a', player: 'Mike Trout' }),
      row({ id: 'b', player: 'Mookie Betts' }),
      row({ id: 'c', player: 'Shohei Ohtani' }),
    ];
    const search = (q: string, extra: Record<string, string> = {}) =>
      readCatalogueSearch(new URLSearchParams({ q, ...extra }));
    const m = searchNarrowing(rows, search('m'));
    const mo = searchNarrowing(rows, search('mo'));
    expect(searchNarrowing(rows, search('moo')).map((r) => r.id)).toEqual(['b']);
    // Backspace: the very results of before, not a new scan.
    expect(searchNarrowing(rows, search('mo'))).toBe(mo);
    expect(searchNarrowing(rows, search('M'))).toBe(m);
    expect(m.map((r) => r.id)).toEqual(['a', 'b']);
    // Another filter or sort beside the same text is another search.
    expect(
      searchNarrowing(rows, search('m', { sort: 'player', dir: 'desc' })).map((r) => r.id),
    ).toEqual(['b', 'a']);
    expect(searchNarrowing(rows, search('m', { status: 'draft' }))).toEqual([]);
    // A changed catalogue is a new rows array: nothing remembered applies to it.
    const grown = [...rows, row({ id: 'd', player: 'Manny Machado' })];
    expect(searchNarrowing(grown, search('m')).map((r) => r.id)).toEqual(['a', 'b', 'd']);
    expect(searchNarrowing(grown, search('mo')).map((r) => r.id)).toEqual(['b']);
  });

  it("builds a row's search text when first searched, or in an idle moment before", async () => {
    const listing = (n: number): ListingRead => ({
      id: `lst_${n}`,
      title: `2020 Topps Chrome #${n}`,
      status: 'active',
      card: { id: `itm_${n}`, player: n === 2 ? 'Luka Dončić' : 'Someone', cert_number: `C${n}` },
    });
    const rows = [1, 2, 3].map((n) => toCatalogueRow(listing(n)));
    expect(rows.every((made) => made.search === undefined)).toBe(true);
    // A search before any idle moment builds what it reads.
    expect(applyCatalogueSearch(rows, { q: 'DONČIĆ' }).map((found) => found.id)).toEqual(['lst_2']);
    expect(applyCatalogueSearch(rows, { q: 'c3' }).map((found) => found.id)).toEqual(['lst_3']);
    expect(rows[0]!.search).toBe('2020 topps chrome #1 someone c1 lst_1');
    // In a page's idle moments the rest are built without a search.
    const later = [4, 5].map((n) => toCatalogueRow(listing(n)));
    fillSearchTexts(later);
    await expect
      .poll(() => later.map((made) => made.search))
      .toEqual(['2020 topps chrome #4 someone c4 lst_4', '2020 topps chrome #5 someone c5 lst_5']);
  });

  it('lists every facet value once, statuses then what a seller calls them', () => {
    const rows = [
      row({ id: 'a', status: 'archived', state: 'sold', grader: 'PSA', grade: '10' }),
      row({ id: 'b', status: 'active', state: 'active', grader: 'BGS', grade: '9.5' }),
      row({ id: 'c', status: 'archived', state: 'expired', grader: undefined, grade: '9' }),
    ];
    expect(catalogueFacets(rows)).toEqual({
      status: ['active', 'archived', 'expired', 'sold'],
      grader: ['BGS', 'PSA'],
      grade: ['9', '9.5', '10'],
      category: ['baseball'],
    });
  });
});

describe('listing bodies', () => {
  it('a PUT carries only the changed fields; an emptied minimum offer is null', () => {
    const values = EditListingForm.parse({
      price: '120.00',
      title: 'T',
      description: '',
      accepts_offers: true,
      minimum_offer: '',
      clear_minimum_offer: false,
      accepts_trades: false,
      auto_relist: false,
      promoted: false,
      duration_hours: '',
    });
    expect(toUpdatePatch(values, { price: true })).toEqual({ price: '120.00' });
    expect(toUpdatePatch(values, { minimum_offer: true })).toEqual({ minimum_offer: null });
    expect(toUpdatePatch({ ...values, duration_hours: '336' }, {})).toEqual({
      duration_hours: 336,
    });
    // Promotion is one-way: un-ticking sends nothing.
    expect(toUpdatePatch(values, { promoted: true })).toEqual({});
  });

  it('terms the API does not show are sent only when the seller sets them', () => {
    const values = EditListingForm.parse({
      price: '120.00',
      title: 'T',
      description: '',
      accepts_offers: true,
      minimum_offer: '',
      clear_minimum_offer: false,
      accepts_trades: '',
      auto_relist: '',
      promoted: false,
      duration_hours: '',
    });
    const unknown = { minimumOffer: undefined, description: undefined };
    // Left as they are: nothing is sent, not even for "dirty" blank fields.
    expect(
      toUpdatePatch(
        values,
        { description: true, minimum_offer: true, accepts_trades: true },
        unknown,
      ),
    ).toEqual({});
    // Set to: the choice is sent; a typed minimum offer replaces the unseen one.
    expect(
      toUpdatePatch(
        { ...values, accepts_trades: 'yes', auto_relist: 'no', minimum_offer: '50' },
        {},
        unknown,
      ),
    ).toEqual({ accepts_trades: true, auto_relist: false, minimum_offer: '50' });
    // Removing a minimum offer nobody can see is an explicit choice.
    expect(toUpdatePatch({ ...values, clear_minimum_offer: true }, {}, unknown)).toEqual({
      minimum_offer: null,
    });
    // A description the API does not show is replaced only by text.
    expect(
      toUpdatePatch({ ...values, description: 'New' }, { description: true }, unknown),
    ).toEqual({ description: 'New' });
  });

  it('checks the card before it goes live unless told not to', () => {
    expect(newListingDefaults({}).review).toBe(true);
    expect(newListingDefaults({ review: false }).review).toBe(false);
  });

  it('a cert and a price make a two-field POST', () => {
    const values = NewListingForm.parse({
      ...newListingDefaults({ review: false }),
      sku: '84512001',
      price: '250',
    });
    expect(toCreateInput(values)).toEqual({ sku: '84512001', price: '250' });
  });

  it('from inventory, the POST names the card and never the cert, photos or card details', () => {
    const values = NewListingForm.parse({
      ...newListingDefaults({ inventoryItemId: 'inv_1', review: false }),
      price: '40',
      grader: 'PSA',
      images: [{ src: 'https://img.example.com/a.jpg' }],
    });
    expect(toCreateInput(values)).toEqual({ inventory_item_id: 'inv_1', price: '40' });
  });

  it('explains the outcome', () => {
    expect(describeOutcome('active', null, null).kind).toBe('live');
    expect(describeOutcome('draft', 'scheduled', '2027-01-01T00:00:00.000Z').kind).toBe(
      'scheduled',
    );
    expect(describeOutcome('draft', 'pending_review', null).kind).toBe('review');
  });

  it('the seller’s check sends no go-live time for an SGC or CGC cert, and one for the others', () => {
    const now = Date.parse('2026-08-01T12:00:00.000Z');
    const form = (grader: string) =>
      NewListingForm.parse({ ...newListingDefaults({}), sku: '7312004', price: '80', grader });
    expect(toCreateInput(form('SGC'), now)).toEqual({ sku: '7312004', price: '80', grader: 'SGC' });
    expect(toCreateInput(form('CGC'), now).scheduled_go_live_at).toBeUndefined();
    expect(toCreateInput(form('PSA'), now).scheduled_go_live_at).toBe('2026-08-01T12:30:00.000Z');
    // Every grader tried: the cert may be PSA or BGS, so the check holds it.
    expect(toCreateInput(form(''), now).scheduled_go_live_at).toBe('2026-08-01T12:30:00.000Z');
  });

  it('a refused check is dropped only when the time was the check’s, not the seller’s', () => {
    const values = NewListingForm.parse({
      ...newListingDefaults({}),
      sku: '7312004',
      price: '80',
    });
    const input = toCreateInput(values);
    const refused = { scheduled_go_live_at: ['cannot be used for a listing that goes to review'] };
    expect(withoutReviewHold(values, input, refused)).toEqual({ sku: '7312004', price: '80' });
    // Refused for something else as well: nothing is sent again.
    expect(withoutReviewHold(values, input, { ...refused, price: ['too low'] })).toBeUndefined();
    // A time the seller chose is theirs: the refusal is shown under it.
    const chosen = { ...values, scheduled_go_live_at: '2099-01-01T10:00' };
    expect(withoutReviewHold(chosen, toCreateInput(chosen), refused)).toBeUndefined();
  });

  it('promises no go-live time for a listing the marketplace reviews', () => {
    const at = '2026-08-01T12:30:00.000Z';
    const outcome = describeOutcome('draft', undefined, at, 'live', true);
    expect(outcome.kind).toBe('review');
    expect(outcome.text).not.toMatch(/goes live at/);
    expect(describeOutcome('active', null, null, 'live', true).kind).toBe('live');
  });
});
