import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LIVE_TOKEN } from '../../src/sandbox';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import { distPages } from '../../src/server/dist-pages';
import { ShowStore } from '../../src/server/shows/show-store';
import { totalsOf } from '../../src/shared/show-tenders';
import { fakeDist, SIGN_IN_HEAVY_MS, signedInServer, Browser } from '../security/auth-http';
import { startHarness, type Harness } from '../support/sandbox-harness';

/** The show ledger's routes over HTTP, on the dashboard's server in front of the real sandbox. */

let harness: Harness;
let local: RunningAppServer;
let signedIn: RunningAppServer;
let people: Record<'owner' | 'editor' | 'viewer', Browser>;
const PASSWORD = 'show-password-1234';

beforeAll(async () => {
  harness = await startHarness({ seed: 'demo', rateLimit: false });
  const upstream = { baseUrl: harness.url, apiKey: DEMO_LIVE_TOKEN };
  const dist = fakeDist();
  local = await startAppServer({ upstream, port: 0, activity: { path: ':memory:' } }, async () =>
    distPages(dist),
  );
  ({ server: signedIn, people } = await signedInServer(
    { upstream, port: 0, activity: { path: ':memory:' } },
    { owner: 'olive', editor: 'eddie', viewer: 'vera' },
    PASSWORD,
  ));
}, SIGN_IN_HEAVY_MS);

afterAll(async () => {
  await local?.close();
  await signedIn?.close();
  await harness?.close();
});

async function call(method: string, path: string, body?: unknown, server = local) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return {
    status: response.status,
    headers: response.headers,
    text,
    // The answers' shapes differ per route: each test reads the fields it checks.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    json: json as Record<string, any>,
  };
}

async function newShow(name = 'Spring Card Show', date = '2026-11-28') {
  const key = randomUUID();
  const made = await call('POST', '/hub/shows', { key, name, date });
  expect(made.status, made.text).toBe(201);
  return key;
}

/** A sale of a listing of its own (a listing is sold once) unless told which. */
const sale = (overrides: Record<string, unknown> = {}) => ({
  key: randomUUID(),
  soldAt: '2026-11-28T15:04:05.000Z',
  listingId: `lst_test_${randomUUID()}`,
  title: '1986 Fleer Michael Jordan #57',
  certNumber: '82432146',
  grader: 'PSA',
  price: '250.00',
  soldOnline: false,
  offMarket: 'deactivated',
  ...overrides,
});

describe('the show ledger', () => {
  it('makes a show once per client key, and lists it', async () => {
    const key = randomUUID();
    const first = await call('POST', '/hub/shows', { key, name: 'Fall Expo', date: '2026-11-27' });
    expect(first.status).toBe(201);
    const again = await call('POST', '/hub/shows', { key, name: 'Fall Expo', date: '2026-11-27' });
    expect(again.status).toBe(200);
    const list = await call('GET', '/hub/shows');
    const mine = (list.json.shows as { key: string; name: string; createdBy: string }[]).filter(
      (show) => show.key === key,
    );
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ name: 'Fall Expo', createdBy: 'This computer' });
  });

  it('refuses bad input with a field-by-field 422 and keeps nothing of it', async () => {
    const bad = await call('POST', '/hub/shows', { key: 'x', name: '', date: '2026-13-45' });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.json.errors)).toEqual(expect.arrayContaining(['key', 'name', 'date']));
    const show = await newShow();
    for (const body of [
      sale({ price: '-5.00' }),
      sale({ price: '12.345' }),
      sale({ tradeIn: { title: 'Card', value: '300.00' } }),
      sale({ cash: '10.00' }),
      sale({ offMarket: 'maybe' }),
      sale({ extra: 'field' }),
      sale({ title: 'x'.repeat(301) }),
    ]) {
      const refused = await call('POST', `/hub/shows/${show}/entries`, body);
      expect(refused.status, JSON.stringify(body)).toBe(422);
    }
    const notJson = await call('POST', `/hub/shows/${show}/entries`, '{"key":');
    expect(notJson.status).toBe(400);
    const huge = await call('POST', `/hub/shows/${show}/entries`, {
      ...sale(),
      note: 'n'.repeat(40_000),
    });
    expect(huge.status).toBe(413);
    const unknownShow = await call('POST', `/hub/shows/${randomUUID()}/entries`, sale());
    expect(unknownShow.status).toBe(404);
    const page = await call('GET', `/hub/shows/${show}`);
    expect(page.json.entries).toEqual([]);
  });

  it('records an entry once, however often a sync retries it', async () => {
    const show = await newShow();
    const entry = sale();
    const answers = await Promise.all(
      [1, 2, 3].map(() => call('POST', `/hub/shows/${show}/entries`, entry)),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 201]);
    const later = await call('POST', `/hub/shows/${show}/entries`, { ...entry, price: '999.00' });
    expect(later.status).toBe(200);
    expect(later.headers.get('idempotent-replayed')).toBe('true');
    const page = await call('GET', `/hub/shows/${show}`);
    expect(page.json.entries).toHaveLength(1);
    expect(page.json.entries[0]).toMatchObject({ priceCents: 25_000, soldBy: 'This computer' });
    // The same key at another show is not a second sale.
    const elsewhere = await call('POST', `/hub/shows/${await newShow()}/entries`, entry);
    expect(elsewhere.status).toBe(409);
  });

  it('refuses a second sale of one listing, at this show or another, naming when and where it sold', async () => {
    const listingId = `lst_once_${randomUUID()}`;
    const philly = await newShow('Philly Card Show', '2026-11-28');
    const first = sale({ listingId });
    expect((await call('POST', `/hub/shows/${philly}/entries`, first)).status).toBe(201);
    const other = await newShow('Spring Card Show', '2026-11-29');
    for (const show of [philly, other]) {
      const again = await call(
        'POST',
        `/hub/shows/${show}/entries`,
        sale({ listingId, price: '240.00' }),
      );
      expect(again.status, again.text).toBe(409);
      expect(again.json.svc_error).toMatchObject({
        code: 'already_sold_at_show',
        show_key: philly,
        sold_at: '2026-11-28T15:04:05.000Z',
      });
      expect(again.json.errors).toBe(
        'This slab was already sold at Philly Card Show on Nov 28, 2026 for $250.00 cash: a slab is sold once.',
      );
    }
    // The first sale's own retry is still answered as recorded, not refused.
    const retry = await call('POST', `/hub/shows/${philly}/entries`, first);
    expect(retry.status).toBe(200);
    expect((await call('GET', `/hub/shows/${philly}`)).json.entries).toHaveLength(1);
    expect((await call('GET', `/hub/shows/${other}`)).json.entries).toEqual([]);
    const looked = await call('GET', `/hub/show-sales?listing=${encodeURIComponent(listingId)}`);
    expect(looked.status).toBe(200);
    expect(looked.json.sale).toMatchObject({
      key: first.key,
      listingId,
      showKey: philly,
      showName: 'Philly Card Show',
      showDate: '2026-11-28',
      priceCents: 25_000,
    });
    const never = await call('GET', '/hub/show-sales?listing=lst_never_sold');
    expect(never.json).toEqual({ sale: null, voidedKeys: [] });
    expect((await call('GET', '/hub/show-sales')).status).toBe(422);
  });

  it('two phones selling one listing at once: exactly one sale is recorded, the rest refused', async () => {
    const listingId = `lst_race_${randomUUID()}`;
    const shows = [await newShow('Hall A'), await newShow('Hall B')];
    const answers = await Promise.all(
      [0, 1, 2, 3, 4, 5].map((n) =>
        call(
          'POST',
          `/hub/shows/${shows[n % 2]}/entries`,
          sale({ listingId, price: `${200 + n}.00` }),
        ),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    for (const refused of answers.filter((answer) => answer.status === 409)) {
      expect(refused.json.svc_error.code).toBe('already_sold_at_show');
    }
    const recorded = (
      await Promise.all(shows.map((show) => call('GET', `/hub/shows/${show}`)))
    ).flatMap((page) => page.json.entries as { listingId: string }[]);
    expect(recorded.filter((entry) => entry.listingId === listingId)).toHaveLength(1);
  });

  it('totals cash, cards, trades and margin against cost; CSV for the books', async () => {
    const show = await newShow('Card Show, "Hall B"', '2026-11-29');
    const post = (body: Record<string, unknown>) =>
      call('POST', `/hub/shows/${show}/entries`, sale(body));
    expect((await post({ price: '100.00', cost: '60.00' })).status).toBe(201);
    expect(
      (
        await post({
          price: '300.00',
          cost: '200.00',
          tradeIn: {
            title: '=HYPERLINK("x") 2003 LeBron',
            certNumber: '12345678',
            value: '120.00',
          },
        })
      ).status,
    ).toBe(201);
    expect(
      (await post({ price: '50.00', soldOnline: true, offMarket: 'sold_online' })).status,
    ).toBe(201);
    const page = await call('GET', `/hub/shows/${show}`);
    expect(page.json.totals).toEqual({
      cardsSold: 3,
      salesCents: 45_000,
      cashCents: 33_000,
      cardCents: 0,
      otherCents: 0,
      trades: 1,
      tradeValueCents: 12_000,
      discountCents: 0,
      marginCents: 14_000,
      withoutCost: 1,
      soldOnline: 1,
      voided: 0,
    });
    const trades = await call('GET', '/hub/trade-ins');
    expect(trades.json.tradeIns).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ certNumber: '12345678', valueCents: 12_000, showKey: show }),
      ]),
    );
    const csv = await call('GET', `/hub/shows/${show}/ledger.csv?tz=America/New_York`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toContain('slabdesk-show-2026-11-29.csv');
    const lines = csv.text
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatch(/^show,show date,sold at,sold by,card,/);
    // 15:04 UTC is 10:04 AM in New York, written as a person reads it.
    expect(lines[1]).toContain('"Nov 29, 2026","Nov 28, 2026 10:04 AM",This computer');
    expect(lines[2]).toContain(`"'=HYPERLINK(""x"") 2003 LeBron"`);
    expect(lines[2]).toContain('"Card Show, ""Hall B"""');
    expect(lines[3]).toContain('YES: settle with the buyer');
    expect(lines[4]).toContain(
      'TOTAL,,3 cards,,,450.00,0.00,450.00,330.00,0.00,0.00,,120.00,1 trade,,,140.00,1,',
    );
  });

  it('keeps the show case', async () => {
    const show = await newShow();
    const set = await call('PUT', `/hub/shows/${show}/case`, { listingIds: ['a1', 'b2', 'a1'] });
    expect(set.status).toBe(200);
    expect(set.json.show).toMatchObject({ caseListingIds: ['a1', 'b2'] });
    expect((await call('PUT', `/hub/shows/${show}/case`, { listingIds: 'a1' })).status).toBe(422);
  });

  it("answers a show with its case's listings as the replica holds them, in the case's order", async () => {
    const show = await newShow();
    await local.replica.ready(['listings']);
    const listed = await call('GET', '/api/2026-07/listings.json?limit=2');
    const [first, second] = (listed.json as { listings: { id: string; title: string }[] }).listings;
    await call('PUT', `/hub/shows/${show}/case`, {
      listingIds: [second!.id, 'lst_not_in_the_store', first!.id],
    });
    const page = await call('GET', `/hub/shows/${show}`);
    expect(page.status).toBe(200);
    const rows = (page.json as { caseListings: { id: string; title: string }[] }).caseListings;
    // One not held is left out (the page says the device has no copy of it).
    expect(rows.map((row) => [row.id, row.title])).toEqual([
      [second!.id, second!.title],
      [first!.id, first!.title],
    ]);
  });

  it('answers another spelling of a ledger path as that path: the same route, the same access', async () => {
    await newShow('Hidden Show');
    const plain = await call('GET', '/hub/shows');
    const spelled = await call('GET', '/%68ub/%73hows');
    expect(spelled.status).toBe(plain.status);
    expect(spelled.json).toEqual(plain.json);
  });
});

describe('tenders as dealers take them, and undoing a sale', () => {
  it('records a split tender with a discount, and totals the show by tender', async () => {
    const show = await newShow('Philly Card Show', '2026-11-28');
    const split = sale({
      price: '250.00',
      discount: '25.00',
      tenders: [
        { kind: 'cash', amount: '100.00' },
        { kind: 'card', amount: '100.00' },
        { kind: 'other', amount: '20.00', note: 'Venmo' },
        { kind: 'trade', amount: '30.00', title: '2003 Topps LeBron', certNumber: '11223344' },
      ],
      cost: '150.00',
    });
    const made = await call('POST', `/hub/shows/${show}/entries`, split);
    expect(made.status, made.text).toBe(201);
    expect(made.json.entry).toMatchObject({
      priceCents: 25_000,
      discountCents: 2_500,
      voided: null,
      tenders: [
        { kind: 'cash', amountCents: 10_000, note: null, trade: null },
        { kind: 'card', amountCents: 10_000, note: null, trade: null },
        { kind: 'other', amountCents: 2_000, note: 'Venmo', trade: null },
        {
          kind: 'trade',
          amountCents: 3_000,
          trade: { title: '2003 Topps LeBron', certNumber: '11223344', grader: null },
        },
      ],
    });
    expect(
      (await call('POST', `/hub/shows/${show}/entries`, sale({ price: '40.00' }))).status,
    ).toBe(201);
    const page = await call('GET', `/hub/shows/${show}`);
    expect(page.json.totals).toMatchObject({
      cardsSold: 2,
      salesCents: 29_000,
      cashCents: 14_000,
      cardCents: 10_000,
      otherCents: 2_000,
      trades: 1,
      tradeValueCents: 3_000,
      discountCents: 2_500,
      voided: 0,
    });
    const lines = (await call('GET', `/hub/shows/${show}/ledger.csv`)).text.trimEnd().split('\r\n');
    expect(lines[1]).toContain(
      '275.00,25.00,250.00,100.00,100.00,20.00,Venmo,30.00,2003 Topps LeBron,11223344,150.00,100.00,no,',
    );
  });

  it('refuses tenders that do not add up to the price, naming the field, and keeps nothing', async () => {
    const show = await newShow();
    const short = await call(
      'POST',
      `/hub/shows/${show}/entries`,
      sale({
        price: '250.00',
        tenders: [
          { kind: 'cash', amount: '100.00' },
          { kind: 'card', amount: '140.00' },
        ],
      }),
    );
    expect(short.status).toBe(422);
    expect(short.json.svc_error.code).toBe('validation_error');
    expect(short.json.errors).toEqual({
      tenders: ['the tenders add up to $240.00, not the price $250.00'],
    });
    for (const tenders of [
      [],
      [{ kind: 'other', amount: '250.00' }],
      [{ kind: 'trade', amount: '250.00' }],
      [{ kind: 'crypto', amount: '250.00' }],
      [
        { kind: 'cash', amount: '0.00' },
        { kind: 'card', amount: '250.00' },
      ],
      [{ kind: 'card', amount: '250.00', note: 'a card has its amount only' }],
    ]) {
      const refused = await call('POST', `/hub/shows/${show}/entries`, sale({ tenders }));
      expect(refused.status, JSON.stringify(tenders)).toBe(422);
      expect(Object.keys(refused.json.errors)[0]).toMatch(/^tenders/);
    }
    const both = await call(
      'POST',
      `/hub/shows/${show}/entries`,
      sale({ cash: '250.00', tenders: [{ kind: 'cash', amount: '250.00' }] }),
    );
    expect(both.status).toBe(422);
    expect((await call('GET', `/hub/shows/${show}`)).json.entries).toEqual([]);
  });

  it('undoes a sale: kept in the ledger as undone, out of the totals, the slab free to sell again', async () => {
    const listingId = `lst_undo_${randomUUID()}`;
    const show = await newShow('Philly Card Show', '2026-11-28');
    const first = sale({
      listingId,
      tenders: [
        { kind: 'cash', amount: '100.00' },
        { kind: 'card', amount: '150.00' },
      ],
    });
    expect((await call('POST', `/hub/shows/${show}/entries`, first)).status).toBe(201);
    const refused = await call('POST', `/hub/shows/${show}/entries`, sale({ listingId }));
    expect(refused.status).toBe(409);
    expect(refused.json.errors).toBe(
      'This slab was already sold at Philly Card Show on Nov 28, 2026 for $250.00 ($100.00 cash + $150.00 by card): a slab is sold once.',
    );

    const undo = await call('POST', `/hub/shows/${show}/entries/${first.key}/void`, {
      reason: 'Buyer changed his mind',
    });
    expect(undo.status, undo.text).toBe(200);
    expect(undo.json.entry.voided).toMatchObject({
      by: 'This computer',
      reason: 'Buyer changed his mind',
    });
    const at = undo.json.entry.voided.at as string;
    expect(Date.parse(at)).not.toBeNaN();
    // A second undo (a retry) is answered the same, nothing changed.
    const again = await call('POST', `/hub/shows/${show}/entries/${first.key}/void`, {});
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json.entry.voided).toEqual(undo.json.entry.voided);

    let page = await call('GET', `/hub/shows/${show}`);
    expect(page.json.entries).toHaveLength(1);
    expect(page.json.entries[0].voided.at).toBe(at);
    expect(page.json.totals).toMatchObject({
      cardsSold: 0,
      salesCents: 0,
      cashCents: 0,
      voided: 1,
    });
    const looked = await call('GET', `/hub/show-sales?listing=${listingId}`);
    expect(looked.json).toEqual({ sale: null, voidedKeys: [first.key] });

    // Sold again, for another price: the ledger takes it now.
    const resale = sale({ listingId, price: '230.00', discount: '20.00' });
    const sold = await call('POST', `/hub/shows/${show}/entries`, resale);
    expect(sold.status, sold.text).toBe(201);
    page = await call('GET', `/hub/shows/${show}`);
    expect(page.json.totals).toMatchObject({
      cardsSold: 1,
      salesCents: 23_000,
      cashCents: 23_000,
      cardCents: 0,
      discountCents: 2_000,
      voided: 1,
    });
    const lines = (await call('GET', `/hub/shows/${show}/ledger.csv`)).text.trimEnd().split('\r\n');
    expect(lines[1]).toMatch(
      /,"UNDONE \w{3} \d{1,2}, \d{4} \d{1,2}:\d{2} [AP]M by This computer: Buyer changed his mind \(not counted\)"$/,
    );
    expect(lines[3]).toMatch(/,1 sale undone$/);
    // ...and a third sale is refused again, naming the standing one.
    const third = await call('POST', `/hub/shows/${show}/entries`, sale({ listingId }));
    expect(third.status).toBe(409);
    expect(third.json.errors).toContain('for $230.00 cash');
  });

  it('refuses an undo of a sale it does not hold, in the house envelope', async () => {
    const show = await newShow();
    const missing = await call('POST', `/hub/shows/${show}/entries/${randomUUID()}/void`, {});
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({
      errors: 'No such sale at this show.',
      svc_error: { code: 'not_found' },
    });
    const entry = sale();
    expect((await call('POST', `/hub/shows/${show}/entries`, entry)).status).toBe(201);
    const elsewhere = await call(
      'POST',
      `/hub/shows/${await newShow()}/entries/${entry.key}/void`,
      {},
    );
    expect(elsewhere.status).toBe(404);
    const bad = await call('POST', `/hub/shows/${show}/entries/${entry.key}/void`, {
      reason: 'r'.repeat(301),
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.json.errors)).toEqual(['reason']);
    expect((await call('GET', `/hub/shows/${show}`)).json.entries[0].voided).toBeNull();
  });
});

describe('a ledger kept before tenders', () => {
  it('reads its cash and traded cards as tenders, and takes new sales after', () => {
    const dir = mkdtempSync(join(tmpdir(), 'slabdesk-show-'));
    const path = join(dir, 'shows.db');
    const old = new Database(path);
    old.exec(`CREATE TABLE shows (key TEXT PRIMARY KEY, name TEXT NOT NULL, date TEXT NOT NULL,
        created_at TEXT NOT NULL, created_by TEXT NOT NULL, case_ids TEXT NOT NULL DEFAULT '[]');
      CREATE TABLE show_entries (seq INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT NOT NULL UNIQUE,
        show_key TEXT NOT NULL REFERENCES shows (key), sold_at TEXT NOT NULL,
        recorded_at TEXT NOT NULL, sold_by TEXT NOT NULL, listing_id TEXT NOT NULL,
        title TEXT NOT NULL, cert_number TEXT, grader TEXT, price_cents INTEGER NOT NULL,
        cash_cents INTEGER NOT NULL, trade_title TEXT, trade_cert TEXT, trade_grader TEXT,
        trade_value_cents INTEGER, cost_cents INTEGER, sold_online INTEGER NOT NULL,
        off_market TEXT NOT NULL, note TEXT);
      INSERT INTO shows VALUES ('show-old-1', 'Old Show', '2026-10-01', '2026-10-01T10:00:00Z', 'olive', '[]');
      INSERT INTO show_entries (key, show_key, sold_at, recorded_at, sold_by, listing_id, title,
        price_cents, cash_cents, trade_title, trade_cert, trade_value_cents, cost_cents,
        sold_online, off_market)
      VALUES ('entry-cash-1', 'show-old-1', '2026-10-01T11:00:00Z', '2026-10-01T11:00:00Z', 'olive',
        'lst_a', 'Card A', 10000, 10000, NULL, NULL, NULL, NULL, 0, 'deactivated'),
      ('entry-trade-1', 'show-old-1', '2026-10-01T12:00:00Z', '2026-10-01T12:00:00Z', 'olive',
        'lst_b', 'Card B', 30000, 18000, 'Traded Card', '99887766', 12000, 20000, 0, 'deactivated'),
      ('entry-trade-2', 'show-old-1', '2026-10-01T13:00:00Z', '2026-10-01T13:00:00Z', 'olive',
        'lst_c', 'Card C', 5000, 0, 'All Trade', NULL, 5000, NULL, 0, 'deactivated');`);
    old.close();
    const store = new ShowStore(path);
    try {
      const entries = store.entries('show-old-1');
      expect(entries.map((entry) => entry.tenders)).toEqual([
        [{ kind: 'cash', amountCents: 10_000, note: null, trade: null }],
        [
          {
            kind: 'trade',
            amountCents: 12_000,
            note: null,
            trade: { title: 'Traded Card', certNumber: '99887766', grader: null },
          },
          { kind: 'cash', amountCents: 18_000, note: null, trade: null },
        ],
        [
          {
            kind: 'trade',
            amountCents: 5_000,
            note: null,
            trade: { title: 'All Trade', certNumber: null, grader: null },
          },
        ],
      ]);
      expect(entries.every((entry) => entry.discountCents === 0 && entry.voided === null)).toBe(
        true,
      );
      expect(totalsOf(entries)).toMatchObject({
        cashCents: 28_000,
        tradeValueCents: 17_000,
        trades: 2,
      });
      expect(store.tradeIns(10).map((trade) => trade.title)).toEqual(['All Trade', 'Traded Card']);
      expect(store.saleOf('lst_b')?.priceCents).toBe(30_000);
    } finally {
      store.close();
    }
    // Opened again: already at its version, nothing migrated twice.
    const reopened = new ShowStore(path);
    try {
      expect(reopened.entries('show-old-1')).toHaveLength(3);
    } finally {
      reopened.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('roles: viewers read, editors and owners record', () => {
  it('names who sold it, and refuses a viewer and a missing token', async () => {
    const owner = people.owner;
    const key = randomUUID();
    const made = await owner.write('POST', '/hub/shows', {
      key,
      name: 'Owner Show',
      date: '2026-11-28',
    });
    expect(made.status, made.body).toBe(201);
    const byEditor = await people.editor.write('POST', `/hub/shows/${key}/entries`, sale());
    expect(byEditor.status, byEditor.body).toBe(201);
    expect(JSON.parse(byEditor.body).entry.soldBy).toBe('eddie');
    const byViewer = await people.viewer.write('POST', `/hub/shows/${key}/entries`, sale());
    expect(byViewer.status).toBe(403);
    const entryKey = JSON.parse(byEditor.body).entry.key as string;
    const voidPath = `/hub/shows/${key}/entries/${entryKey}/void`;
    expect((await people.viewer.write('POST', voidPath, {})).status).toBe(403);
    expect((await people.editor.write('POST', voidPath, {}, null)).status).toBe(403);
    const viewerCase = await people.viewer.write('PUT', `/hub/shows/${key}/case`, {
      listingIds: [],
    });
    expect(viewerCase.status).toBe(403);
    const noToken = await people.editor.write('POST', `/hub/shows/${key}/entries`, sale(), null);
    expect(noToken.status).toBe(403);
    const read = await people.viewer.request(`/hub/shows/${key}`);
    expect(read.status).toBe(200);
    expect(JSON.parse(read.body).entries).toHaveLength(1);
    const undone = await people.editor.write('POST', voidPath, { reason: 'Wrong slab' });
    expect(undone.status, undone.body).toBe(200);
    expect(JSON.parse(undone.body).entry.voided).toMatchObject({
      by: 'eddie',
      reason: 'Wrong slab',
    });
    const csv = await people.viewer.request(`/hub/shows/${key}/ledger.csv`);
    expect(csv.status).toBe(200);
    const stranger = new Browser(signedIn.url, new URL(signedIn.url).host);
    expect((await stranger.request(`/hub/shows/${key}`)).status).toBe(401);
  });
});
