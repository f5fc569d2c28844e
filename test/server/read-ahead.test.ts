import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client';
import { DEMO_LIVE_TOKEN } from '../../src/sandbox';
import type { RunningAppServer } from '../../src/server/app-server';
import { KeyGovernor } from '../../src/server/governor/key-governor';
import { LINK_SEAL_PARAM } from '../../src/server/link-seal';
import { ReadAhead, READ_AHEAD_TTL_MS } from '../../src/server/read-ahead';
import type { UpstreamAnswer } from '../../src/server/upstream-call';
import type { FaultProxy } from '../client/fault-proxy';
import { startAppOverLog, type AppOverLog } from '../support/app-over-log';
import { startHarness, type Harness } from '../support/sandbox-harness';

/**
 * The proxy reads the next page of a walk ahead: against the real sandbox, behind a logging
 * proxy that records every call that actually went upstream.
 */

let harness: Harness;
let served: AppOverLog;
let upstreamLog: FaultProxy;
let app: RunningAppServer;

beforeAll(async () => {
  harness = await startHarness({ seed: 'demo', demoListings: 300, rateLimit: false });
  served = await startAppOverLog(harness.url, DEMO_LIVE_TOKEN);
  ({ app, upstreamLog } = served);
});

afterAll(async () => {
  await served.close();
  await harness.close();
});

beforeEach(() => {
  app.hub.readAhead.clear();
});

const sameOrigin = () => ({ 'sec-fetch-site': 'same-origin', origin: app.url });

const nextOf = (response: Response) =>
  /<([^>]*)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];

interface WalkedPage {
  ids: string[];
  readAhead: string | null;
  upstreamPath: string;
}

/** Walks listings through the dashboard's proxy as the browser does, page by page. */
async function walk(first: string, pages = Infinity): Promise<WalkedPage[]> {
  const walked: WalkedPage[] = [];
  let url: string | undefined = `${app.url}${first}`;
  while (url !== undefined && walked.length < pages) {
    const response = await fetch(url, { headers: sameOrigin() });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { listings: { id: string }[] };
    walked.push({
      ids: body.listings.map((row) => row.id),
      readAhead: response.headers.get('x-slabdesk-read-ahead'),
      upstreamPath: upstreamPathOf(url),
    });
    url = nextOf(response);
  }
  return walked;
}

/** The upstream path and query a browser URL of the proxy stands for (a link's seal set aside). */
const upstreamPathOf = (url: string) =>
  `${new URL(url).pathname.replace(/^\/api/, '')}${new URL(url).search}`.replace(
    new RegExp(`[?&]${LINK_SEAL_PARAM}=[^&]*$`),
    '',
  );

const upstreamCalls = (pathAndQuery: string) =>
  upstreamLog.log.filter((entry) => entry.url === pathAndQuery).length;

describe('read-ahead through the proxy', () => {
  it('answers each next page from one upstream call made as the page before came back', async () => {
    const before = upstreamLog.log.length;
    const pages = await walk('/api/2026-07/listings.json?limit=50&fields=id');
    const direct: string[] = [];
    let url: string | undefined = '/listings.json?limit=50&fields=id';
    while (url !== undefined) {
      const response = await harness.api(url, { token: DEMO_LIVE_TOKEN });
      direct.push(
        ...((await response.json()) as { listings: { id: string }[] }).listings.map((r) => r.id),
      );
      const next = nextOf(response);
      url = next === undefined ? undefined : next.slice(next.indexOf('/listings.json'));
    }

    expect(pages.length).toBeGreaterThan(3);
    // The same rows in the same order as a walk straight at the sandbox.
    expect(pages.flatMap((page) => page.ids)).toEqual(direct);
    // The first page is the browser's own call; every later one was read ahead.
    expect(pages.map((page) => page.readAhead)).toEqual([
      null,
      ...pages.slice(1).map(() => 'served'),
    ]);
    // Each page went upstream exactly once, and nothing else did.
    for (const page of pages) expect(upstreamCalls(page.upstreamPath)).toBe(1);
    expect(upstreamLog.log.length - before).toBe(pages.length);
  });

  it('serves no page read ahead across a write: the page is asked for again', async () => {
    const [first] = await walk('/api/2026-07/listings.json?limit=40&fields=id,price', 1);
    const response = await fetch(`${app.url}/api/2026-07/listings.json?limit=40&fields=id`, {
      headers: sameOrigin(),
    });
    const second = nextOf(response)!;
    await response.arrayBuffer();
    // The write: a price change of a listing on the first page (its outcome does not matter).
    await fetch(`${app.url}/api/2026-07/listings/${first!.ids[0]}.json`, {
      method: 'PUT',
      headers: { ...sameOrigin(), 'content-type': 'application/json' },
      body: JSON.stringify({ listing: { price: '123.45' } }),
    });
    const after = await fetch(second, { headers: sameOrigin() });
    expect(after.status).toBe(200);
    expect(after.headers.get('x-slabdesk-read-ahead')).toBeNull();
    const secondPath = upstreamPathOf(second);
    // Once read ahead (dropped by the write), once for the browser after it.
    expect(upstreamCalls(secondPath)).toBe(2);
  });
});

describe('a walk that reads its first page only', () => {
  /** A tab of the dashboard: a client of the server's `/api`, as in the browser. */
  const tab = () =>
    createClient({
      baseUrl: `${app.url}/api`,
      pacing: { enabled: false, maxInFlight: 6 },
      sendPriority: true,
    });

  it('says so, and the proxy reads no next page for it (one upstream call)', async () => {
    const before = upstreamLog.log.length;
    const sent = app.hub.readAhead.counts.sent;
    // As the kept copies' store check reads the oldest listing: one row, no lookahead.
    for await (const page of tab().listings.pages({ limit: 1, lookahead: 0 })) {
      expect(page.rows).toHaveLength(1);
      break;
    }
    expect(app.hub.readAhead.counts.sent - sent).toBe(0);
    // This walk's calls upstream (a page the test before read ahead may still land meanwhile).
    const ours = upstreamLog.log
      .slice(before)
      .filter((entry) => /[?&]limit=1(&|$)/.test(entry.url));
    expect(ours.map((entry) => entry.url)).toEqual(['/2026-07/listings.json?limit=1']);
  });

  it('a call without the word has its next page read ahead, as before', async () => {
    const sent = app.hub.readAhead.counts.sent;
    const response = await fetch(`${app.url}/api/2026-07/listings.json?limit=1&fields=id`, {
      headers: sameOrigin(),
    });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    expect(app.hub.readAhead.counts.sent - sent).toBe(1);
    const none = await fetch(`${app.url}/api/2026-07/listings.json?limit=2&fields=id`, {
      headers: { ...sameOrigin(), 'x-slabdesk-read-ahead': 'none' },
    });
    await none.arrayBuffer();
    expect(app.hub.readAhead.counts.sent - sent).toBe(1);
  });
});

describe('read-ahead of a link written another way', () => {
  it("reads the next page ahead whatever the order of the link's parameters", async () => {
    // `rel` after another parameter, as RFC 8288 allows and the browser's client reads.
    const { app: server, close } = await startAppOverLog(harness.url, DEMO_LIVE_TOKEN, {
      rewriteLink: (link) => link.replace(/;\s*rel=/g, '; title="more"; rel='),
    });
    try {
      const headers = { 'sec-fetch-site': 'same-origin', origin: server.url };
      const first = await fetch(`${server.url}/api/2026-07/listings.json?limit=50&fields=id`, {
        headers,
      });
      expect(first.headers.get('link')).toContain('title="more"; rel="next"');
      const second = await fetch(
        /<([^>]*)>; title="more"; rel="next"/.exec(first.headers.get('link')!)![1]!,
        { headers },
      );
      expect(second.status).toBe(200);
      expect(second.headers.get('x-slabdesk-read-ahead')).toBe('served');
      // The second page read ahead and taken; the third read ahead as the second was served.
      expect(server.hub.readAhead.counts).toEqual({ sent: 2, taken: 1 });
    } finally {
      await close();
    }
  });
});

describe('read-ahead of a link that does not point back at the proxy', () => {
  for (const [label, link] of [
    ['another site', '<https://elsewhere.invalid/catalogue?page=2>; rel="next"'],
    ['no URL at all', '<http://a b>; rel="next"'],
  ] as const) {
    it(`passes the page on and reads nothing ahead: ${label}`, async () => {
      const {
        app: server,
        upstreamLog: log,
        close,
      } = await startAppOverLog(harness.url, DEMO_LIVE_TOKEN, { rewriteLink: () => link });
      try {
        const response = await fetch(`${server.url}/api/2026-07/listings.json?limit=5&fields=id`, {
          headers: { 'sec-fetch-site': 'same-origin', origin: server.url },
        });
        expect(response.status).toBe(200);
        expect(((await response.json()) as { listings: unknown[] }).listings).toHaveLength(5);
        expect(response.headers.get('link')).toBe(link);
        expect(server.hub.readAhead.counts.sent).toBe(0);
        expect(log.log).toHaveLength(1);
      } finally {
        await close();
      }
    });
  }
});

describe('ReadAhead', () => {
  const answer = (status = 200): UpstreamAnswer => ({
    status,
    headers: new Headers({ 'x-service-api-call-limit': '1/40' }),
    body: Buffer.from('{}'),
  });

  it('reads nothing ahead when the bucket is short of room', async () => {
    const governor = new KeyGovernor('svc_live_x');
    // The upstream says 38 of 40 are used: two left, fewer than read-ahead needs.
    const ticket = await governor.acquire('interactive');
    governor.settle(ticket, 200, new Headers({ 'x-service-api-call-limit': '38/40' }));
    const readAhead = new ReadAhead();
    let sent = 0;
    readAhead.offer(
      'http://up/2026-07/listings.json?page_info=a',
      undefined,
      governor,
      async () => {
        sent++;
        return answer();
      },
    );
    expect(sent).toBe(0);
    expect(
      readAhead.take('http://up/2026-07/listings.json?page_info=a', undefined),
    ).toBeUndefined();
  });

  it('holds a page for its exact URL and Accept, once, and not past its time', async () => {
    let now = 1_000;
    const governor = new KeyGovernor('svc_live_x');
    const readAhead = new ReadAhead({ now: () => now });
    const url = 'http://up/2026-07/listings.json?page_info=b';
    const send = async () => answer();
    readAhead.offer(url, 'application/json', governor, send);
    expect(readAhead.take(url, undefined)).toBeUndefined();
    expect(readAhead.take(`${url}x`, 'application/json')).toBeUndefined();
    await expect(readAhead.take(url, 'application/json')).resolves.toMatchObject({ status: 200 });
    expect(readAhead.take(url, 'application/json')).toBeUndefined();

    readAhead.offer(url, 'application/json', governor, send);
    now += READ_AHEAD_TTL_MS + 1;
    expect(readAhead.take(url, 'application/json')).toBeUndefined();
    expect(readAhead.counts).toEqual({ sent: 2, taken: 1 });
  });
});
