import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LIVE_TOKEN } from '../../src/sandbox';
import { createClient, parseLinkHeader, WalkStoppedError } from '../../src/client';
import { startHarness, type Harness } from '../support/sandbox-harness';
import { startFaultProxy } from './fault-proxy';

/**
 * An upstream that is within the RFCs but not the way our sandbox writes them, or that is broken:
 * every walk still reads every row once, or ends with a clear error that keeps what was read.
 */

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ seed: 'demo' });
});
afterAll(() => h.close());

const client = (baseUrl: string) =>
  createClient({ baseUrl, apiKey: DEMO_LIVE_TOKEN, pacing: { maxInFlight: 4 } });

describe('Link headers in every form RFC 8288 allows', () => {
  it('reads parameters in any order, any case, with spaces around "=" and quoted commas', () => {
    const url = 'https://api.example/2026-07/x.json?page_info=a,b';
    expect(parseLinkHeader(`<${url}>; title="page, two"; rel="next"`)).toEqual({ next: url });
    expect(parseLinkHeader(`<${url}>; REL=NEXT`)).toEqual({ next: url });
    expect(parseLinkHeader(`<${url}> ; rel = "next"`)).toEqual({ next: url });
    expect(
      parseLinkHeader(`<${url}>;rel="Previous Next", <https://b/2026-07/y>; rel=sunset`),
    ).toEqual({ previous: url, next: url, sunset: 'https://b/2026-07/y' });
    // Of a rel given twice, the first counts; a link without rel names nothing.
    expect(parseLinkHeader(`<${url}>; rel="previous"; rel="next", <https://c/>`)).toEqual({
      previous: url,
    });
    expect(parseLinkHeader(`<${url}>; title="a \\"quoted\\" rel=next"`)).toEqual({});
  });

  it('ends an unquoted value at ";", "," or any whitespace, and a name at a non-token char', () => {
    const url = 'https://api.example/2026-07/x.json';
    expect(parseLinkHeader(`<${url}>; rel=next\t; title=x`)).toEqual({ next: url });
    expect(parseLinkHeader(`<${url}>; rel=next\u00a0, <https://b/>; rel=last`)).toEqual({
      next: url,
      last: 'https://b/',
    });
    expect(parseLinkHeader(`<${url}>; rel=next\u2003more`)).toEqual({ next: url });
    expect(parseLinkHeader(`<${url}>; rel=next,<https://b/>;rel=prev`)).toEqual({
      next: url,
      prev: 'https://b/',
    });
    expect(parseLinkHeader(`<${url}>; r@l=next`)).toEqual({});
  });

  it('ends at an unterminated quoted value, keeping what was read', () => {
    const url = 'https://api.example/2026-07/x.json';
    expect(parseLinkHeader(`<${url}>; rel=next, <https://b/>; rel=last; title="x`)).toEqual({
      next: url,
      last: 'https://b/',
    });
    expect(parseLinkHeader(`<${url}>; rel="next`)).toEqual({ next: url });
  });

  const forms: [string, (link: string) => string][] = [
    ['a title before rel', (l) => l.replace(/; rel="(\w+)"/g, '; title="page"; rel="$1"')],
    [
      'REL=NEXT',
      (l) => l.replace(/; rel="(\w+)"/g, (_m, rel: string) => `; REL=${rel.toUpperCase()}`),
    ],
    ['rel = "next"', (l) => l.replace(/; rel="(\w+)"/g, ' ; rel = "$1"')],
  ];
  for (const [name, rewriteLink] of forms) {
    it(`walks every page when the upstream writes ${name}`, async () => {
      const proxy = await startFaultProxy(h.url, { rewriteLink });
      try {
        const api = client(proxy.url);
        const listings = await api.listings.loadAll({ limit: 250 });
        expect(listings.pages).toBe(3);
        expect(listings.rows).toHaveLength(600);
        const items = await api.inventoryItems.loadAll({ limit: 250 });
        const direct = await client(h.url).inventoryItems.loadAll({ limit: 250 });
        expect(items.rows.length).toBe(direct.rows.length);
        expect(items.rows.length).toBeGreaterThan(500);
        expect(proxy.log.some((entry) => entry.url.includes('page_info='))).toBe(true);
      } finally {
        await proxy.close();
      }
    });
  }
});

describe('walks that would never end', () => {
  it('stops a cursor that leads back to the first page, keeping what was read', async () => {
    let first: string | undefined;
    const proxy = await startFaultProxy(h.url, {
      // Page 2's next points back at page 2: the walk would read pages 2, 2, 2, ... forever.
      rewriteLink: (link) => {
        const next = /<([^>]+)>;\s*rel="next"/.exec(link)?.[1];
        first ??= next;
        return first ? link.replace(next ?? '', first) : link;
      },
    });
    try {
      const api = client(proxy.url);
      const error = await api.inventoryItems.loadAll({ limit: 100 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WalkStoppedError);
      const stopped = error as WalkStoppedError;
      expect(stopped.code).toBe('cursor_loop');
      expect(stopped.message).toMatch(/loops/);
      expect(stopped.partial.rows).toHaveLength(200);
      expect(stopped.partial.pages).toBe(2);
      expect(proxy.log.length).toBeLessThanOrEqual(3);
    } finally {
      await proxy.close();
    }
  });

  it('stops a cursor that changes but serves the same rows again', async () => {
    let n = 0;
    const proxy = await startFaultProxy(h.url, {
      // Every answer is the first page, with a fresh-looking cursor each time.
      rewriteLink: (link) => link.replace(/page_info=([^&>]+)/, `page_info=$1&n=${n++}`),
    });
    const firstPage = await (
      await h.api('/orders.json?limit=50', { token: DEMO_LIVE_TOKEN })
    ).text();
    const replay = await startFaultProxy(proxy.url, { rewriteBody: () => firstPage });
    try {
      const error = await client(replay.url)
        .orders.loadAll({ limit: 50 })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'cursor_loop' });
      expect((error as WalkStoppedError).partial.rows).toHaveLength(50);
      expect(replay.log.length).toBe(2);
    } finally {
      await replay.close();
      await proxy.close();
    }
  });

  it('stops at the page budget with page_budget_exceeded', async () => {
    const error = await client(h.url)
      .listings.loadAll({ limit: 10, maxPages: 4 })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'page_budget_exceeded' });
    expect((error as WalkStoppedError).partial.rows).toHaveLength(40);
  });
});
