import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/sandbox-harness';
import { call, createListing, errorCode, freshCert, registerCert } from './writes-helpers';

/** Write bodies an attacker or a broken partner sends: a clear 422, nothing stored, never a 500. */

let h: Harness;
let token: string;
let listingId: string;
beforeAll(async () => {
  h = await startHarness({ rateLimit: false });
  token = (await h.seller()).token;
  const created = await createListing(h, token, { sku: await registerCert(h, 'PSA'), price: '50' });
  listingId = created.body.listing.id;
});
afterAll(() => h.close());

/** A fallback-card create (the cert is unknown, so the card details are used and stored). */
const fallback = (card: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  sku: freshCert(),
  price: '75.00',
  grader: 'PSA',
  images: [{ src: 'https://photos.example.com/slab.jpg' }],
  card: { title: 'A fallback card', ...card },
  ...extra,
});

describe('field names that are Object.prototype members', () => {
  for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
    it(`answers 422 naming "${name}" (create, update, card and envelope)`, async () => {
      const raw = (inner: string) => `{"listing": {"price": "20", "sku": "1", ${inner}}}`;
      const bodies = [
        raw(`"${name}": 1`),
        raw(`"card": {"title": "x", "${name}": 1}`),
        `{"listing": {"price": "20"}, "${name}": {}}`,
      ];
      for (const body of bodies) {
        const res = await call(h, 'POST', '/listings.json', token, body);
        expect(res.status, body).toBe(422);
        expect(errorCode(res)).toBe('validation_error');
        const fields = Object.keys(res.body.errors as object);
        expect(
          fields.some((field) => field.endsWith(name)),
          JSON.stringify(res.body),
        ).toBe(true);
      }
      const update = await call(
        h,
        'PUT',
        `/listings/${listingId}.json`,
        token,
        `{"listing": {"${name}": 1}}`,
      );
      expect(update.status).toBe(422);
      expect(Object.keys(update.body.errors as object)).toContain(name);
    });
  }
});

describe('text and card fields', () => {
  it('refuses control characters in titles, cert numbers and card text', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ sku: 'A\u0000B', price: '20' }, 'sku'],
      [fallback({}, { title: 'Charizard\u0000 PSA 10' }), 'title'],
      [fallback({ title: 'Bad\u001b[31m title' }), 'card.title'],
      [fallback({ player: 'Ken\u0007 Griffey' }), 'card.player'],
      [fallback({}, { description: 'line one\u0000' }), 'description'],
    ];
    for (const [listing, field] of cases) {
      const res = await createListing(h, token, listing);
      expect(res.status, field).toBe(422);
      expect(res.body.errors[field], field).toEqual([
        expect.stringContaining('control characters'),
      ]);
    }
    const update = await call(h, 'PUT', `/listings/${listingId}.json`, token, {
      listing: { title: 'x\u0000y' },
    });
    expect(update.status).toBe(422);
    expect(update.body.errors.title).toBeDefined();
    // A description keeps its line breaks and tabs.
    const multiline = await createListing(
      h,
      token,
      fallback({}, { description: 'line one\nline two\tend' }),
    );
    expect(multiline.status).toBe(201);
    expect(multiline.body.listing.description).toBe('line one\nline two\tend');
  });

  it('refuses a card year that is not a plausible year', async () => {
    for (const year of [1e300, -5, 0, 1200, new Date().getUTCFullYear() + 5]) {
      const res = await createListing(h, token, fallback({ year }));
      expect(res.status, String(year)).toBe(422);
      expect(res.body.errors['card.year'], String(year)).toBeDefined();
    }
    const ok = await createListing(h, token, fallback({ year: 1952 }));
    expect(ok.status).toBe(201);
  });

  it("refuses a grade off its grader's scale and keeps the ones on it", async () => {
    const refused: [string, string][] = [
      ['PSA', '11'],
      ['PSA', '0'],
      ['PSA', '9.5'],
      ['BGS', '10.5'],
      ['CGC', '7.3'],
      ['SGC', 'ten'],
      ['BGS', '-1'],
    ];
    for (const [grader, grade] of refused) {
      const res = await createListing(h, token, fallback({ grade }, { grader }));
      expect(res.status, `${grader} ${grade}`).toBe(422);
      expect(res.body.errors['card.grade'], `${grader} ${grade}`).toBeDefined();
    }
    for (const [grader, grade] of [
      ['PSA', '10'],
      ['PSA', '8.5'],
      ['BGS', '9.5'],
      ['CGC', '10 Pristine'],
      ['SGC', '1'],
    ] as const) {
      const res = await createListing(h, token, fallback({ grade }, { grader }));
      expect(res.status, `${grader} ${grade}`).toBe(201);
    }
  });
});
