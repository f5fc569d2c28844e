import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LIVE_TOKEN, DEMO_UNLISTED_CERTS } from '../../src/sandbox';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import { Browser, usersDb } from '../security/auth-http';
import { distPages } from '../../src/server/dist-pages';
import type { ActivityEntry } from '../../src/server/activity/activity-store';
import { startHarness, type Harness } from '../support/sandbox-harness';

let harness: Harness;
let app: RunningAppServer;
let signedIn: RunningAppServer;
let sam: Browser;
const SAM_PASSWORD = 'sam-password-1234';
/** Active demo listings, read once: each test writes to listings of its own. */
let active: Listed[] = [];
interface Listed {
  id: string;
  title: string;
  price: string;
  accepts_offers: boolean;
  unavailable_reason: string | null;
}

function dist(): string {
  const folder = mkdtempSync(join(tmpdir(), 'slabdesk-dist-'));
  mkdirSync(join(folder, 'assets'));
  writeFileSync(
    join(folder, 'index.html'),
    '<!doctype html><html><head><title>t</title></head></html>',
  );
  return folder;
}

beforeAll(async () => {
  harness = await startHarness({ seed: 'demo', rateLimit: false });
  const upstream = { baseUrl: harness.url, apiKey: DEMO_LIVE_TOKEN };
  const folder = dist();
  app = await startAppServer({ upstream, port: 0, activity: { path: ':memory:' } }, async () =>
    distPages(folder),
  );
  // A server where sam, an editor, signs in: the gate names him to the proxy.
  signedIn = await startAppServer(
    {
      upstream,
      port: 0,
      activity: { path: ':memory:' },
      auth: { usersDb: await usersDb([{ name: 'sam', role: 'editor', password: SAM_PASSWORD }]) },
    },
    async () => distPages(folder),
  );
  sam = new Browser(signedIn.url, new URL(signedIn.url).host);
  expect((await sam.signIn('sam', SAM_PASSWORD)).status).toBe(303);
  const page = (await (
    await fetch(`${app.url}/api/2026-07/listings.json?status=active&limit=100`)
  ).json()) as { listings: Listed[] };
  // Listings that can be changed: live, not sold or held.
  active = page.listings.filter((listing) => listing.unavailable_reason === null);
});

afterAll(async () => {
  await app?.close();
  await signedIn?.close();
  await harness?.close();
});

let next = 0;
/** A demo listing no other test of this file writes to. */
function freshListing() {
  const listing = active[next++];
  if (!listing) throw new Error('out of demo listings');
  return listing;
}

async function api(
  server: RunningAppServer,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${server.url}/api/2026-07${path}`, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text };
}

async function activity(query = '', server = app) {
  const response = await fetch(`${server.url}/hub/activity${query ? `?${query}` : ''}`);
  expect(response.status).toBe(200);
  return (await response.json()) as {
    entries: ActivityEntry[];
    people: string[];
    nextBefore: number | null;
  };
}

/** The newest entry for a listing, once the recorder (after the answer) has written it. */
async function entryFor(listingId: string, server = app): Promise<ActivityEntry> {
  let found: ActivityEntry | undefined;
  await expect
    .poll(async () => {
      found = (await activity(`listing=${encodeURIComponent(listingId)}`, server)).entries[0];
      return found;
    })
    .toBeDefined();
  return found!;
}

describe('the activity log records every write through the proxy', () => {
  it('records a price change with what it was before, the request id and "this computer"', async () => {
    const listing = freshListing();
    // The single view teaches the recorder the listing as it is.
    await api(app, 'GET', `/listings/${listing.id}.json`);
    const put = await api(app, 'PUT', `/listings/${listing.id}.json`, {
      listing: { price: '110.00' },
    });
    expect(put.status, put.text).toBe(200);
    const entry = await entryFor(listing.id);
    expect(entry).toMatchObject({
      action: 'update',
      actor: null,
      listingId: listing.id,
      outcome: 'ok',
      status: 200,
      code: null,
      requestId: put.headers.get('x-request-id'),
      changes: { price: { before: listing.price, after: '110.00' } },
    });
    expect(Date.parse(entry.at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('knows "before" from a list page too, and reads the product form of a write', async () => {
    const listing = freshListing();
    // The beforeAll's list page is the only read of this listing.
    const put = await api(app, 'PUT', `/products/${listing.id}.json`, {
      product: {
        body_html: 'Sharp corners',
        variants: [{ price: '99.50' }],
        svc_accepts_offers: false,
      },
    });
    expect(put.status).toBe(200);
    const entry = await entryFor(listing.id);
    expect(entry.changes).toEqual({
      price: { before: listing.price, after: '99.50' },
      description: { after: 'Sharp corners' },
      accepts_offers: { before: listing.accepts_offers, after: false },
    });
  });

  it('records a create with the new listing id from the answer', async () => {
    const cert = DEMO_UNLISTED_CERTS[0]!.cert_number;
    const post = await api(app, 'POST', '/listings.json', {
      listing: { sku: cert, price: '250.00' },
    });
    expect(post.status).toBe(201);
    const id = (JSON.parse(post.text) as { listing: { id: string } }).listing.id;
    const entry = await entryFor(id);
    expect(entry).toMatchObject({
      action: 'create',
      listingId: id,
      outcome: 'ok',
      status: 201,
      changes: { sku: { after: cert }, price: { after: '250.00' } },
    });
  });

  it('records a DELETE as a deactivation, and a PUT status active as a reactivation', async () => {
    const listing = freshListing();
    await api(app, 'GET', `/listings/${listing.id}.json`);
    expect((await api(app, 'DELETE', `/listings/${listing.id}.json`)).status).toBe(200);
    const gone = await entryFor(listing.id);
    expect(gone.action).toBe('deactivate');
    expect(gone.changes.status?.before).toBe('active');
    expect(gone.changes.status?.after).not.toBe('active');
    const back = await api(app, 'PUT', `/listings/${listing.id}.json`, {
      listing: { status: 'active' },
    });
    expect(back.status).toBe(200);
    await expect
      .poll(async () => (await activity(`listing=${listing.id}`)).entries.map((e) => e.action))
      .toEqual(['reactivate', 'deactivate']);
    const [reactivated] = (await activity(`listing=${listing.id}`)).entries;
    expect(reactivated!.changes.status).toEqual({
      before: gone.changes.status?.after,
      after: 'active',
    });
  });

  it('records a refused write with its status and code, and the bulk job it belongs to', async () => {
    const listing = freshListing();
    const put = await api(
      app,
      'PUT',
      `/listings/${listing.id}.json`,
      { listing: { price: '5.00' } },
      { 'x-slabdesk-bulk-job': 'job-42' },
    );
    expect(put.status).toBe(422);
    const answer = JSON.parse(put.text) as {
      svc_error: { code: string };
      errors: Record<string, string[]>;
    };
    const code = answer.svc_error.code;
    const entry = await entryFor(listing.id);
    // What the marketplace said, in its words, for the seller to read without opening Details.
    const [field, messages] = Object.entries(answer.errors)[0]!;
    expect(entry.message).toContain(`${field.replace(/_/g, ' ')} ${messages[0]}`);
    expect(entry).toMatchObject({
      action: 'update',
      outcome: 'refused',
      status: 422,
      code,
      bulkJobId: 'job-42',
      changes: { price: { after: '5.00' } },
    });
    expect(code).toBeTruthy();
  });

  it('records who made the write when sign-in names a person, and filters by person', async () => {
    const listing = freshListing();
    const written = await sam.write('PUT', `/api/2026-07/listings/${listing.id}.json`, {
      listing: { title: 'Sam was here' },
    });
    expect(written.status).toBe(200);
    const entry = await entryFor(listing.id, signedIn);
    expect(entry.actor).toEqual({ name: 'sam', role: 'editor' });
    const bySam = await activity('person=sam', signedIn);
    expect(bySam.people).toContain('sam');
    expect(bySam.entries.every((e) => e.actor?.name === 'sam')).toBe(true);
    expect((await activity('person=This%20computer', signedIn)).entries).toEqual([]);
    expect((await activity('person=This%20computer')).entries.length).toBeGreaterThan(0);
  });

  it('a body nested thousands deep or a megabyte long is answered and recorded, without its fields', async () => {
    const listing = freshListing();
    const deep = `{"listing":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
    const answer = await api(app, 'PUT', `/listings/${listing.id}.json`, deep);
    expect(answer.status).toBeGreaterThanOrEqual(400);
    const entry = await entryFor(listing.id);
    expect(entry.changes).toEqual({});
    expect(entry.outcome).toBe('refused');
    const long = JSON.stringify({ listing: { description: 'x'.repeat(1_000_000) } });
    const other = freshListing();
    const big = await api(app, 'PUT', `/listings/${other.id}.json`, long);
    expect(big.status).toBeGreaterThanOrEqual(200);
    const kept = await entryFor(other.id);
    // A long value is cut to a few hundred characters in the log.
    expect(String(kept.changes.description?.after).length).toBeLessThan(400);
    expect((await fetch(`${app.url}/api/2026-07/ping`)).status).toBe(200);
  });

  it('records an upstream that cannot be reached as failed', async () => {
    const folder = dist();
    const dead = await startAppServer(
      {
        upstream: { baseUrl: 'http://127.0.0.1:9', apiKey: DEMO_LIVE_TOKEN },
        port: 0,
        activity: { path: ':memory:' },
      },
      async () => distPages(folder),
    );
    try {
      const put = await api(dead, 'PUT', '/listings/abc.json', { listing: { price: '20.00' } });
      expect(put.status).toBe(502);
      const entry = await entryFor('abc', dead);
      expect(entry).toMatchObject({ outcome: 'failed', status: 0, code: 'upstream_unreachable' });
    } finally {
      await dead.close();
    }
  });
});

describe('the activity API', () => {
  it('pages newest first with before, and filters by listing and day (in the given zone)', async () => {
    const all = await activity('limit=2');
    expect(all.entries).toHaveLength(2);
    expect(all.entries[0]!.id).toBeGreaterThan(all.entries[1]!.id);
    expect(all.nextBefore).toBe(all.entries[1]!.id);
    const older = await activity(`limit=2&before=${all.nextBefore}`);
    expect(older.entries[0]!.id).toBeLessThan(all.nextBefore!);
    const today = new Date().toISOString().slice(0, 10);
    expect((await activity(`day=${today}`)).entries.length).toBeGreaterThan(0);
    expect((await activity('day=2001-01-01')).entries).toEqual([]);
    // The same instant is "today" in UTC and may be another day in Kiritimati (UTC+14).
    const there = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Kiritimati' }).format(
      new Date(all.entries[0]!.at),
    );
    const inZone = await activity(`day=${there}&tz=Pacific/Kiritimati`);
    expect(inZone.entries.map((e) => e.id)).toContain(all.entries[0]!.id);
    // A filter that does not read is the house's 422, naming the field.
    const bad = await fetch(`${app.url}/hub/activity?day=2026-02-30`);
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({
      errors: { day: [expect.any(String)] },
      svc_error: { code: 'validation_error' },
    });
    expect((await fetch(`${app.url}/hub/activity?tz=Mars/Olympus&day=2026-01-01`)).status).toBe(
      422,
    );
    const tooMany = await fetch(`${app.url}/hub/activity?limit=100000`);
    expect(tooMany.status).toBe(422);
    expect(((await tooMany.json()) as { errors: Record<string, unknown> }).errors).toHaveProperty(
      'limit',
    );
  });

  it('downloads the same filters as CSV, one row per field, formulas neutralised', async () => {
    const listing = freshListing();
    await api(app, 'PUT', `/listings/${listing.id}.json`, {
      listing: { title: '=HYPERLINK("http://evil.example","win")' },
    });
    await entryFor(listing.id);
    const response = await fetch(`${app.url}/hub/activity.csv?listing=${listing.id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename=".*\.csv"$/);
    const text = await response.text();
    const lines = text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'time,person,action,listing,field,before,after,outcome,request id,bulk job',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`This computer,update,${listing.id},title,`);
    // The time as the seller reads it (UTC without a zone), never ISO.
    expect(lines[1]).toMatch(/^"[A-Z][a-z]{2} \d{1,2}, \d{4} \d{1,2}:\d{2} [AP]M",/);
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil.example"",""win"")"`);
    expect(lines[1]).not.toMatch(/,=HYPERLINK/);
  });

  it('is read only, and a server without a log says so', async () => {
    const post = await fetch(`${app.url}/hub/activity`, { method: 'POST' });
    expect(post.status).toBe(405);
    const folder = dist();
    const bare = await startAppServer(
      { upstream: { baseUrl: harness.url, apiKey: DEMO_LIVE_TOKEN }, port: 0 },
      async () => distPages(folder),
    );
    try {
      expect((await fetch(`${bare.url}/hub/activity`)).status).toBe(404);
    } finally {
      await bare.close();
    }
  });
});
