import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { DEMO_LIVE_TOKEN, startSandbox } from '../../src/sandbox';
import { acceptsAsIs } from '../../src/client/fast-accept';
import { ListingDetail, ListingListItem, Order } from '../../src/client';
import { documentedListingRow } from '../support/listing-rows';

/** The documented row with an accented title, nulls where the schema allows them and two of the extras. */
const listing = {
  ...documentedListingRow,
  title: '2018 Prizm Luka Dončić #280 PSA 10',
  card: { ...documentedListingRow.card, title: '2018 Prizm Luka Dončić #280', player: null },
  listed_at: null,
  minimum_offer: null,
  window_ends_at: '2026-07-31T00:00:00.000Z',
};

/** Every way a value may differ from `listing` by one field (each a fresh copy). */
const variants: [string, unknown][] = [
  ['a price in words', { ...listing, price: 'two hundred' }],
  ['a price as a number', { ...listing, price: 250 }],
  ['a timestamp without a zone', { ...listing, created_at: '2026-07-01T00:00:00' }],
  ['an unknown grader', { ...listing, card: { ...listing.card, grader: 'XYZ' } }],
  ['a year with a fraction', { ...listing, card: { ...listing.card, year: 2018.5 } }],
  ['an infinite count', { ...listing, card_count: Infinity }],
  ['NaN as a count', { ...listing, card_count: NaN }],
  ['a required field missing', (({ title: _, ...rest }) => rest)(listing)],
  ['an empty status', { ...listing, status: '' }],
  ['null where null is not allowed', { ...listing, title: null }],
  ['a key the schema does not name', { ...listing, something_new: 1 }],
  ['a nested key the schema does not name', { ...listing, card: { ...listing.card, extra: 1 } }],
  ['an array for an object', { ...listing, card: [] }],
  ['not an object at all', 'lst_1'],
  ['null', null],
  ['an own __proto__ key', JSON.parse('{"__proto__": {"x": 1}, "id": "lst_1"}')],
];

describe('the fast acceptance of records zod would take unchanged', () => {
  it('takes a whole, valid record as it is, and zod agrees with an equal copy', () => {
    expect(acceptsAsIs(ListingListItem, listing)).toBe(true);
    const parsed = ListingListItem.safeParse(listing);
    expect(parsed.success && isDeepStrictEqual(parsed.data, listing)).toBe(true);
  });

  it.each(variants)('says no to %s (zod then decides)', (_, value) => {
    expect(acceptsAsIs(ListingListItem, value)).toBe(false);
  });

  it('never says yes where zod would refuse or change the value', () => {
    const schemas = [ListingListItem, z.partial(ListingListItem), ListingDetail];
    for (const schema of schemas) {
      for (const [, value] of [['whole', listing] as const, ...variants]) {
        if (!acceptsAsIs(schema, value)) continue;
        const parsed = schema.safeParse(value);
        expect(parsed.success).toBe(true);
        expect(parsed.success && isDeepStrictEqual(parsed.data, value)).toBe(true);
      }
    }
  });

  it('lets absent optional fields be absent (a `fields` read), not absent required ones', () => {
    const picked = { id: 'lst_1', price: '250.00', card: listing.card };
    expect(acceptsAsIs(z.partial(ListingListItem), picked)).toBe(true);
    expect(acceptsAsIs(ListingListItem, picked)).toBe(false);
  });

  it('says no to what it does not know: defaults, transforms, unions', () => {
    expect(acceptsAsIs(z.object({ a: z._default(z.string(), 'x') }), {})).toBe(false);
    expect(acceptsAsIs(z.object({ a: z.optional(z._default(z.string(), 'x')) }), {})).toBe(false);
    expect(
      acceptsAsIs(
        z.pipe(
          z.string(),
          z.transform((s) => s.length),
        ),
        'abc',
      ),
    ).toBe(false);
    expect(acceptsAsIs(z.union([z.string(), z.number()]), 'a')).toBe(false);
    expect(acceptsAsIs(z.string(), 'a')).toBe(true);
  });

  it("takes every row of the demo sandbox's listings and orders, each equal to zod's parse", async () => {
    const sandbox = await startSandbox({ port: 0, db: ':memory:', seed: 'demo' });
    try {
      for (const [path, schema] of [
        ['listings', ListingListItem],
        ['orders', Order],
      ] as const) {
        const response = await fetch(`${sandbox.url}/2026-07/${path}.json?limit=250`, {
          headers: { 'X-Service-Access-Token': DEMO_LIVE_TOKEN },
        });
        const rows = ((await response.json()) as Record<string, unknown[]>)[path]!;
        expect(rows.length).toBeGreaterThan(50);
        for (const row of rows) {
          expect(acceptsAsIs(schema, row)).toBe(true);
          const parsed = schema.safeParse(row);
          expect(parsed.success && isDeepStrictEqual(parsed.data, row)).toBe(true);
        }
      }
    } finally {
      await sandbox.close();
    }
  });
});
