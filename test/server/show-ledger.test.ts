import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LIVE_TOKEN } from '../../src/sandbox';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import { distPages } from '../../src/server/dist-pages';
import { Browser, fakeDist, SIGN_IN_HEAVY_MS, usersDb } from '../security/auth-http';
import { startHarness, type Harness } from '../support/sandbox-harness';

/** The show ledger's routes over HTTP, on the dashboard's server in front of the real sandbox. */

let harness: Harness;
let local: RunningAppServer;
let signedIn: RunningAppServer;
const people: Record<'owner' | 'editor' | 'viewer', Browser> = {} as never;
const PASSWORD = 'show-password-1234';

beforeAll(async () => {
  harness = await startHarness({ seed: 'demo', rateLimit: false });
  const upstream = { baseUrl: harness.url, apiKey: DEMO_LIVE_TOKEN };
  const dist = fakeDist();
  local = await startAppServer({ upstream, port: 0, activity: { path: ':memory:' } }, async () =>
    distPages(dist),
  );
  signedIn = await startAppServer(
    {
      upstream,
      port: 0,
      activity: { path: ':memory:' },
      auth: {
        usersDb: await usersDb([
          { name: 'olive', role: 'owner', password: PASSWORD },
          { name: 'eddie', role: 'editor', password: PASSWORD },
          { name: 'vera', role: 'viewer', password: PASSWORD },
        ]),
        requireSignIn: true,
      },
    },
    async () => distPages(dist),
  );
  const host = new URL(signedIn.url).host;
  for (const [role, name] of [
    ['owner', 'olive'],
    ['editor', 'eddie'],
    ['viewer', 'vera'],
  ] as const) {
    people[role] = new Browser(signedIn.url, host);
    expect((await people[role].signIn(name, PASSWORD)).status).toBe(303);
  }
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
    expect(never.json).toEqual({ sale: null });
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
      trades: 1,
      tradeValueCents: 12_000,
      marginCents: 14_000,
      withoutCost: 1,
      soldOnline: 1,
    });
    const trades = await call('GET', '/hub/trade-ins');
    expect(trades.json.tradeIns).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ certNumber: '12345678', valueCents: 12_000, showKey: show }),
      ]),
    );
    const csv = await call('GET', `/hub/shows/${show}/ledger.csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toContain('slabdesk-show-2026-11-29.csv');
    const lines = csv.text
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatch(/^show,show date,sold at,sold by,card/);
    expect(lines[2]).toContain(`"'=HYPERLINK(""x"") 2003 LeBron"`);
    expect(lines[2]).toContain('"Card Show, ""Hall B"""');
    expect(lines[3]).toContain('YES: settle with the buyer');
    expect(lines[4]).toContain('TOTAL,,3 cards,,,450.00,330.00,1 trades,,120.00,,140.00,1');
  });

  it('keeps the show case', async () => {
    const show = await newShow();
    const set = await call('PUT', `/hub/shows/${show}/case`, { listingIds: ['a1', 'b2', 'a1'] });
    expect(set.status).toBe(200);
    expect(set.json.show).toMatchObject({ caseListingIds: ['a1', 'b2'] });
    expect((await call('PUT', `/hub/shows/${show}/case`, { listingIds: 'a1' })).status).toBe(422);
  });

  it('answers another spelling of a ledger path as that path: the same route, the same access', async () => {
    await newShow('Hidden Show');
    const plain = await call('GET', '/hub/shows');
    const spelled = await call('GET', '/%68ub/%73hows');
    expect(spelled.status).toBe(plain.status);
    expect(spelled.json).toEqual(plain.json);
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
    const viewerCase = await people.viewer.write('PUT', `/hub/shows/${key}/case`, {
      listingIds: [],
    });
    expect(viewerCase.status).toBe(403);
    const noToken = await people.editor.write('POST', `/hub/shows/${key}/entries`, sale(), null);
    expect(noToken.status).toBe(403);
    const read = await people.viewer.request(`/hub/shows/${key}`);
    expect(read.status).toBe(200);
    expect(JSON.parse(read.body).entries).toHaveLength(1);
    const csv = await people.viewer.request(`/hub/shows/${key}/ledger.csv`);
    expect(csv.status).toBe(200);
    const stranger = new Browser(signedIn.url, new URL(signedIn.url).host);
    expect((await stranger.request(`/hub/shows/${key}`)).status).toBe(401);
  });
});
