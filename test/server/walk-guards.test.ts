import { afterEach, describe, expect, it } from 'vitest';
import { startAppOver, startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { pagesOfWalkAnswer } from '../support/walk-answer';
import type { RunningAppServer } from '../../src/server/app-server';
import { createClient, WalkStoppedError } from '../../src/client';

/**
 * The server's walk (`GET /hub/walk`) against an upstream whose walk would never end: it stops
 * asking the upstream within a few pages, and the answer ends with the last page it read.
 */

const KEY = 'svc_live_walkguardtestkey0000000000';
let upstream: FakeUpstream | undefined;
let app: RunningAppServer | undefined;
afterEach(async () => {
  await app?.close();
  await upstream?.close();
  app = upstream = undefined;
});

type Page = (n: number) => { body: string; next: number | undefined };

/** An upstream serving `/2026-07/listings.json` pages as `page` says, and the server over it. */
async function serveOver(page: Page) {
  const calls: string[] = [];
  upstream = await startFakeUpstream((req, res) => {
    calls.push(req.url ?? '');
    const n = Number(/page_info=p(\d+)/.exec(req.url ?? '')?.[1] ?? 1);
    const { body, next } = page(n);
    const link = `<${upstream!.url}/2026-07/listings.json?limit=250&page_info=p${next}>; rel="next"`;
    res
      .writeHead(200, {
        'content-type': 'application/json',
        ...(next === undefined ? {} : { link }),
      })
      .end(body);
  });
  app = await startAppOver(upstream.url, KEY);
  return { calls, app };
}

/** The server's walk answer over such an upstream; the upstream calls it made. */
async function walkOver(page: Page) {
  const { calls, app } = await serveOver(page);
  const first = '/api/2026-07/listings.json?limit=250';
  const response = await fetch(`${app.url}/hub/walk?url=${encodeURIComponent(first)}`, {
    headers: { 'sec-fetch-site': 'same-origin', origin: app.url },
  });
  const pages = pagesOfWalkAnswer(Buffer.from(await response.arrayBuffer()));
  return { calls, pages };
}

const rows = (from: number) =>
  JSON.stringify({ listings: [{ id: `l${from}` }, { id: `l${from + 1}` }] });

describe("the server's walk guards", () => {
  it('stops at a cursor already followed', async () => {
    const { calls, pages } = await walkOver((n) => ({ body: rows(n * 10), next: 2 }));
    expect(pages.map((page) => page.head.status)).toEqual([200, 200]);
    expect(calls.length).toBeLessThanOrEqual(3);
  });

  it('stops at a page the same as one already read, under a fresh cursor', async () => {
    const { calls, pages } = await walkOver((n) => ({ body: rows(0), next: n + 1 }));
    expect(pages).toHaveLength(2);
    expect(calls.length).toBeLessThanOrEqual(3);
  });

  it('stops after empty pages that keep announcing more', async () => {
    const { calls, pages } = await walkOver((n) => ({
      body: n === 1 ? rows(0) : '{"listings":[]}',
      next: n + 1,
    }));
    expect(pages.length).toBeLessThanOrEqual(6);
    expect(calls.length).toBeLessThanOrEqual(7);
  });

  it('stops after a 200 whose body is not JSON', async () => {
    const { calls, pages } = await walkOver((n) => ({
      body: n === 2 ? '<html>Bad gateway</html>' : rows(n * 10),
      next: n + 1,
    }));
    expect(pages).toHaveLength(2);
    expect(pages[1]!.text).toContain('Bad gateway');
    expect(calls.length).toBeLessThanOrEqual(3);
  });

  it("ends the page's walk with its own error, the upstream asked a bounded number of times", async () => {
    const { calls, app } = await serveOver((n) => ({ body: rows(n * 10), next: 2 }));
    const client = createClient({
      baseUrl: `${app.url}/api`,
      pacing: { enabled: false },
      sendPriority: true,
      walkStreamPath: '/hub/walk',
      fetch: (input, init) =>
        fetch(input, {
          ...init,
          headers: {
            ...(init?.headers as Record<string, string>),
            'sec-fetch-site': 'same-origin',
            origin: app.url,
          },
        }),
    });
    const error = await client.listings.loadAll({ limit: 250 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WalkStoppedError);
    expect(error).toMatchObject({ code: 'cursor_loop' });
    expect(calls.length).toBeLessThanOrEqual(5);
  });

  it('still walks a healthy collection to its end', async () => {
    const { calls, pages } = await walkOver((n) => ({
      body: rows(n * 10),
      next: n < 12 ? n + 1 : undefined,
    }));
    expect(pages).toHaveLength(12);
    expect(calls).toHaveLength(12);
  });
});
