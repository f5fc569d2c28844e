import { describe, expect, it } from 'vitest';
import type { createClient } from '../../src/client';
import { parseLinkHeader } from '../../src/client/link-header';
import { WALK_CONTENT_TYPE, WalkFeed, type WalkFrame } from '../../src/client/walk-frames';
import type { AppOverLog } from '../support/app-over-log';
import { appFaultingListingsCall, servedSandbox } from '../support/served-sandbox';
import { pagesOfWalkAnswer } from '../support/walk-answer';
import { tabClient } from '../support/tab-client';

/**
 * Walks behind the dashboard's server read their first page with a call of its own and every
 * later page from one `/hub/walk` answer: the real client in Node against the real server and
 * sandbox, its fetch only counted (and given the same-origin headers a browser adds to the
 * page's own calls).
 */

const sandbox = servedSandbox();

/** The dashboard's client as the page makes it, against `app`; `fetched` lists every fetch. */
const pageClient = (app: AppOverLog['app'], walkStreamPath: string | undefined) =>
  tabClient(app.url, walkStreamPath);

async function walkIds(client: ReturnType<typeof createClient>): Promise<string[][]> {
  const pages: string[][] = [];
  for await (const page of client.listings.pages({
    limit: 40,
    fields: ['id', 'price'],
    whole: true,
  })) {
    pages.push(page.rows.map((row) => row.id));
  }
  return pages;
}

describe('walks read from one answer of the dashboard server', () => {
  it('yield the pages of a walk made call by call, from two requests', async () => {
    const byCalls = pageClient(sandbox.served.app, undefined);
    const expected = await walkIds(byCalls.client);
    expect(expected.length).toBeGreaterThan(5);
    expect(byCalls.fetched).toHaveLength(expected.length);

    const { client, fetched } = pageClient(sandbox.served.app, '/hub/walk');
    const before = sandbox.served.upstreamLog.log.length;
    expect(await walkIds(client)).toEqual(expected);
    // The first page by itself (drawn before the rest is read), then the rest in one answer.
    expect(fetched.map((url) => new URL(url).pathname)).toEqual([
      '/api/2026-07/listings.json',
      '/hub/walk',
    ]);
    expect(new URL(fetched[1]!).searchParams.get('url')).toContain('page_info=');
    // Every page is still an API request of its own, counted and reported with its meta.
    expect(client.transport.getState().counts.requests).toBe(expected.length);
    expect(client.transport.getState().last?.requestId).toMatch(/^req_/);
    expect(sandbox.served.upstreamLog.log.length - before).toBe(expected.length);
  });

  it('fall back to a call per page when the server does not answer walks', async () => {
    // Not a walk answer (the page's HTML): the walk asks for each page itself.
    const { client, fetched } = pageClient(sandbox.served.app, '/hub/no-such-path');
    const pages = await walkIds(client);
    expect(pages.flat()).toHaveLength(300);
    // The first page, the walk asked for from page 2 (not answered), then pages 2 on.
    expect(fetched).toHaveLength(1 + 1 + pages.length - 1);
    expect(new URL(fetched[1]!).pathname).toBe('/hub/no-such-path');
    expect(
      [fetched[0]!, ...fetched.slice(2)].every(
        (url) => new URL(url).pathname === '/api/2026-07/listings.json',
      ),
    ).toBe(true);
  });

  it('retry a page the answer brought as a 429 with a call of its own, then go on', async () => {
    const limited = await appFaultingListingsCall(sandbox.harness.url, 'rate_limited');
    try {
      const expected = await walkIds(pageClient(sandbox.served.app, undefined).client);
      const { client, fetched } = pageClient(limited.app, '/hub/walk');
      expect(await walkIds(client)).toEqual(expected);
      expect(client.transport.getState().counts.rateLimited).toBe(1);
      // Page 1 by a call, the walk answer brought page 2 and the 429 of page 3; page 3 on was
      // asked for call by call.
      expect(fetched).toHaveLength(1 + 1 + expected.length - 2);
    } finally {
      await limited.close();
    }
  });
});

describe('the walk answer reader', () => {
  it('hands over each page whole wherever the answer is cut into chunks', async () => {
    const { app } = sandbox.served;
    const path = '/api/2026-07/listings.json?limit=25&fields=id,title';
    const first = `${app.url}${path}`;
    const answer = await fetch(`${app.url}/hub/walk?url=${encodeURIComponent(path)}`, {
      headers: { 'sec-fetch-site': 'same-origin', origin: app.url },
    });
    const bytes = Buffer.from(await answer.arrayBuffer());
    const expected = pagesOfWalkAnswer(bytes);
    expect(expected.length).toBeGreaterThan(10);

    for (const maxChunk of [1, 7, 4096]) {
      let at = 0;
      let seed = maxChunk;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (at >= bytes.length) return controller.close();
          seed = (seed * 1103515245 + 12345) % 2 ** 31;
          const size = 1 + (seed % maxChunk);
          controller.enqueue(new Uint8Array(bytes.subarray(at, at + size)));
          at += size;
        },
      });
      const feed = new WalkFeed(
        first,
        async () => new Response(body, { headers: { 'content-type': WALK_CONTENT_TYPE } }),
        (link) => link,
      );
      const got: { status: number; text: string }[] = [];
      let url: string | undefined = first;
      while (url !== undefined) {
        const frame: WalkFrame | undefined = await feed.take(url);
        expect(frame, `page ${got.length + 1} with chunks up to ${maxChunk}`).toBeDefined();
        got.push({ status: frame!.status, text: await frame!.text() });
        url = parseLinkHeader(frame!.headers.get('link')).next;
      }
      expect(got.map((frame) => frame.text)).toEqual(expected.map((page) => page.text));
      expect(got.map((frame) => frame.status)).toEqual(expected.map(() => 200));
      // A page not on this walk is not the answer's to give.
      expect(feed.take(`${first}&other=1`)).toBeUndefined();
    }
  });

  it('gives undefined for the page still to come when the answer breaks off', async () => {
    const first = 'http://127.0.0.1:1/api/2026-07/listings.json';
    const feed = new WalkFeed(
      first,
      async () => new Response('<!doctype html>', { headers: { 'content-type': 'text/html' } }),
      (link) => link,
    );
    expect(await feed.take(first)).toBeUndefined();
  });
});
