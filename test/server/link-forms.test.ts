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
import { startAppOverLog } from '../support/app-over-log';
import { startHarness, type Harness } from '../support/sandbox-harness';
import { tabClient } from '../support/tab-client';

/**
 * "Follow what the server gives, verbatim": an upstream that forwards to the real sandbox and
 * writes its `Link` URLs in each legal form; every collection walks to its end through the client
 * directly and through the dashboard's server.
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

/** The keys of a page-by-page walk (the client's lookahead on). */
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

  it("walks every collection to its end through the server's proxy", async () => {
    upstream.received.length = 0;
    const { client } = tabClient(app.url);
    for (const name of NAMES) {
      expect(await walkPageByPage(client, name), name).toEqual(expected[name]);
      const loaded = await client[name].loadAll({ limit: LIMIT });
      expect(keysOf(name, loaded.rows), name).toEqual(expected[name]);
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

    const { client } = tabClient(app.url);
    for (const name of NAMES) {
      expect(await walkPageByPage(client, name), name).toEqual(expected[name]);
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
    const first = await fetch(`${app.url}/api/2026-07/listings.json?limit=${LIMIT}`, { headers });
    await first.arrayBuffer();
    const link = first.headers.get('link') ?? '';
    const next = /<([^>]+)>;\s*rel="next"/.exec(link)?.[1];
    expect(next).toBeDefined();
    expect(new URL(next!).origin).not.toBe(app.url);
    expect(link).not.toContain(`${app.url}/api/`);
    expect(upstream.received.filter((url) => url.includes('page_info='))).toEqual([]);
    expect(elsewhere).toEqual([]);
  });
});

describe('a Link whose URL cannot be read', () => {
  it('is passed on as written, the page whole, one upstream call', async () => {
    const link = '<http://a b>; rel="next"';
    const { app, upstreamLog, close } = await startAppOverLog(harness.url, DEMO_LIVE_TOKEN, {
      rewriteLink: () => link,
    });
    try {
      const response = await fetch(`${app.url}/api/2026-07/listings.json?limit=5&fields=id`, {
        headers: { 'sec-fetch-site': 'same-origin', origin: app.url },
      });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { listings: unknown[] }).listings).toHaveLength(5);
      expect(response.headers.get('link')).toBe(link);
      expect(upstreamLog.log).toHaveLength(1);
    } finally {
      await close();
    }
  });
});
