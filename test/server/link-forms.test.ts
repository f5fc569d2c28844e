import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client';
import { COLLECTIONS } from '../../src/client/resources';
import { DEMO_LIVE_TOKEN } from '../../src/sandbox';
import type { RunningAppServer } from '../../src/server/app-server';
import { startAppOver } from '../support/fake-upstream';
import {
  LINK_CREDENTIAL,
  LINK_FORMS,
  startLinkFormsUpstream,
  type LinkFormsUpstream,
} from '../support/link-forms-upstream';
import { startHarness, type Harness } from '../support/sandbox-harness';
import { pagesOfWalkAnswer } from '../support/walk-answer';
import { tabClient } from '../support/tab-client';

/**
 * "Follow what the server gives, verbatim": an upstream that forwards to the real sandbox and
 * writes its `Link` URLs in each legal form; every collection walks to its end through the client
 * directly, and through the dashboard's server page by page and in its streamed walk.
 */

const NAMES = ['listings', 'orders', 'inventoryItems', 'inventoryLevels'] as const;
type Name = (typeof NAMES)[number];
/** Rows per page: every collection of the demo takes several pages. */
const LIMIT = 15;

let harness: Harness;
/** Each collection's keys, walked straight at the sandbox. */
const expected = {} as Record<Name, string[]>;

const keysOf = (name: Name, rows: readonly unknown[]) =>
  rows.map((row) => String((row as Record<string, unknown>)[COLLECTIONS[name].keyField]));

beforeAll(async () => {
  harness = await startHarness({ seed: 'demo', demoListings: 120, rateLimit: false });
  const direct = createClient({
    baseUrl: harness.url,
    apiKey: DEMO_LIVE_TOKEN,
    pacing: { enabled: false },
  });
  for (const name of NAMES) {
    expected[name] = keysOf(name, (await direct[name].loadAll({ limit: LIMIT })).rows);
    expect(expected[name].length, name).toBeGreaterThan(2 * LIMIT);
  }
});

afterAll(async () => {
  await harness?.close();
});

/** A tab of the dashboard against `app`; `fetched` lists each fetch. */
const tabOf = (app: RunningAppServer, walkStreamPath?: string) =>
  tabClient(app.url, walkStreamPath);

/** The keys of a page-by-page walk (the client's lookahead and the server's read-ahead on). */
async function walkPageByPage(client: ReturnType<typeof createClient>, name: Name) {
  const keys: string[] = [];
  for await (const page of client[name].pages({ limit: LIMIT }))
    keys.push(...keysOf(name, page.rows));
  return keys;
}

/** Every cursor call the upstream took was to a URL it wrote, byte for byte. */
function expectOnlyIssuedCursors(upstream: LinkFormsUpstream) {
  const cursors = upstream.received.filter((url) => url.includes('page_info='));
  expect(cursors.length).toBeGreaterThan(0);
  for (const url of cursors) expect(upstream.issued, url).toContain(url);
}

describe.each(LINK_FORMS)('links written as: %s', (form) => {
  let upstream: LinkFormsUpstream;
  let app: RunningAppServer;
  beforeAll(async () => {
    upstream = await startLinkFormsUpstream(harness.url, form);
    app = await startAppOver(upstream.url, DEMO_LIVE_TOKEN);
  });
  afterAll(async () => {
    await app?.close();
    await upstream?.close();
  });

  it('walks every collection to its end through the client directly', async () => {
    const client = createClient({
      baseUrl: upstream.url,
      apiKey: DEMO_LIVE_TOKEN,
      pacing: { enabled: false },
    });
    for (const name of NAMES) {
      expect(await walkPageByPage(client, name), name).toEqual(expected[name]);
      const loaded = await client[name].loadAll({ limit: LIMIT });
      expect(keysOf(name, loaded.rows), name).toEqual(expected[name]);
    }
    expectOnlyIssuedCursors(upstream);
  });

  it("walks every collection to its end through the server's proxy, page by page", async () => {
    upstream.received.length = 0;
    const { client } = tabOf(app);
    for (const name of NAMES) {
      expect(await walkPageByPage(client, name), name).toEqual(expected[name]);
    }
    expectOnlyIssuedCursors(upstream);
  });

  it("walks every collection to its end in the server's streamed walk", async () => {
    upstream.received.length = 0;
    const { client, fetched } = tabOf(app, '/hub/walk');
    for (const name of NAMES) {
      const before = fetched.length;
      const loaded = await client[name].loadAll({ limit: LIMIT });
      expect(keysOf(name, loaded.rows), name).toEqual(expected[name]);
      // The first page by itself, then every other page in the one streamed answer.
      const calls = fetched.slice(before).map((url) => new URL(url).pathname);
      expect(calls, name).toEqual([`/api/2026-07${COLLECTIONS[name].path}`, '/hub/walk']);
    }
    expectOnlyIssuedCursors(upstream);
  });
});

describe('a Link whose query carries a credential', () => {
  let upstream: LinkFormsUpstream;
  let app: RunningAppServer;
  beforeAll(async () => {
    upstream = await startLinkFormsUpstream(harness.url, 'a credential in the query');
    app = await startAppOver(upstream.url, DEMO_LIVE_TOKEN);
  });
  afterAll(async () => {
    await app?.close();
    await upstream?.close();
  });

  it('reaches the browser and goes back upstream without it; the walks still end', async () => {
    const first = await fetch(`${app.url}/api/2026-07/inventory_items.json?limit=${LIMIT}`, {
      headers: { 'sec-fetch-site': 'same-origin', origin: app.url },
    });
    await first.arrayBuffer();
    const link = first.headers.get('link') ?? '';
    expect(link).toContain('page_info=');
    expect(link).not.toMatch(/access_token|svc_live_/);

    const paged = tabOf(app);
    const streamed = tabOf(app, '/hub/walk');
    for (const name of NAMES) {
      expect(await walkPageByPage(paged.client, name), name).toEqual(expected[name]);
      const loaded = await streamed.client[name].loadAll({ limit: LIMIT });
      expect(keysOf(name, loaded.rows), name).toEqual(expected[name]);
    }
    expect(upstream.received.some((url) => url.includes('page_info='))).toBe(true);
    expect(upstream.received.filter((url) => url.includes(LINK_CREDENTIAL.split('=')[0]!))).toEqual(
      [],
    );
    expect(upstream.received.join('\n')).not.toContain('svc_live_');
  });
});

describe('a Link to another origin', () => {
  let upstream: LinkFormsUpstream;
  let app: RunningAppServer;
  const elsewhere: string[] = [];
  const other = createServer((req, res) => {
    elsewhere.push(req.url ?? '/');
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"listings":[]}');
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    upstream = await startLinkFormsUpstream(harness.url, 'another origin', otherOrigin);
    app = await startAppOver(upstream.url, DEMO_LIVE_TOKEN);
  });
  afterAll(async () => {
    await app?.close();
    await upstream?.close();
    await new Promise<void>((resolve) => other.close(() => resolve()));
  });

  it('is passed on as written, not pointed at the proxy, and never followed by it', async () => {
    const headers = { 'sec-fetch-site': 'same-origin', origin: app.url };
    const readAhead = app.hub.readAhead.counts.sent;
    const first = await fetch(`${app.url}/api/2026-07/listings.json?limit=${LIMIT}`, { headers });
    await first.arrayBuffer();
    const link = first.headers.get('link') ?? '';
    const next = /<([^>]+)>;\s*rel="next"/.exec(link)?.[1];
    expect(next).toBeDefined();
    expect(new URL(next!).origin).not.toBe(app.url);
    expect(link).not.toContain(`${app.url}/api/`);
    expect(app.hub.readAhead.counts.sent).toBe(readAhead);

    // The streamed walk brings the first page only: the link it names is not the proxy's.
    const walk = await fetch(
      `${app.url}/hub/walk?url=${encodeURIComponent(`/api/2026-07/listings.json?limit=${LIMIT}`)}`,
      { headers },
    );
    const pages = pagesOfWalkAnswer(Buffer.from(await walk.arrayBuffer()));
    expect(pages).toHaveLength(1);
    const walkNext = /<([^>]+)>;\s*rel="next"/.exec(pages[0]!.head.headers.link ?? '')?.[1];
    expect(new URL(walkNext!).origin).toBe(new URL(next!).origin);
    expect(upstream.received.filter((url) => url.includes('page_info='))).toEqual([]);
    expect(elsewhere).toEqual([]);
  });
});
