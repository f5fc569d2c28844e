import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LIVE_TOKEN } from '../../src/sandbox';
import { ApiError, createClient, type ResponseMeta } from '../../src/client';
import { startHarness, type Harness } from '../support/sandbox-harness';
import { startFaultProxy } from './fault-proxy';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ seed: 'demo' });
});
afterAll(() => h.close());

const client = (baseUrl = h.url, onResponse?: (meta: ResponseMeta) => void) =>
  createClient({ baseUrl, apiKey: DEMO_LIVE_TOKEN, ...(onResponse ? { onResponse } : {}) });

describe('cursor walks', () => {
  it('follows absolute rel="next" links verbatim to the end, oldest first', async () => {
    const urls: string[] = [];
    const api = client(h.url, (meta) => urls.push(meta.url));
    const ids: string[] = [];
    let pages = 0;
    for await (const page of api.listings.pages({ limit: 100 })) {
      pages++;
      ids.push(...page.rows.map((r) => r.id));
    }
    expect(pages).toBe(6);
    expect(ids).toHaveLength(600);
    expect(new Set(ids).size).toBe(600);
    expect(urls[0]).toContain('limit=100');
    expect(urls.slice(1).every((u) => u.includes('page_info='))).toBe(true);
    // Oldest first: the same order as a single-page read of the first 100.
    const first = (await api.listings.pages({ limit: 100 }).next()).value!;
    expect(first.rows.map((r) => r.id)).toEqual(ids.slice(0, 100));
  });

  it('follows relative Link URLs too', async () => {
    const proxy = await startFaultProxy(h.url, {
      rewriteLink: (link) => link.replace(/<https?:\/\/[^/]+\/2026-07\//g, '<'),
    });
    try {
      const seenLinks: string[] = [];
      const api = client(proxy.url, (meta) => {
        if (meta.links.next) seenLinks.push(meta.links.next);
      });
      const snapshot = await api.orders.loadAll({ limit: 60 });
      expect(seenLinks.length).toBeGreaterThan(1);
      // Written relative (`orders.json?...`), read against the URL of the answer they came in.
      expect(seenLinks.every((l) => l.startsWith(`${proxy.url}/2026-07/orders.json?`))).toBe(true);
      expect(snapshot.rows).toHaveLength(200);
      expect(new Set(snapshot.rows.map((o) => o.id)).size).toBe(200);
    } finally {
      await proxy.close();
    }
  });

  it('applies fields (always keeping the id) and updated_at_min', async () => {
    const api = client();
    const page = (await api.listings.pages({ limit: 5, fields: ['title', 'price'] }).next()).value!;
    expect(page.rows).toHaveLength(5);
    for (const row of page.rows) expect(Object.keys(row).sort()).toEqual(['id', 'price', 'title']);
    const future = await api.listings.loadAll({ updatedAtMin: new Date(Date.now() + 86_400_000) });
    expect(future.rows).toEqual([]);
    expect(future.pages).toBe(1);
  });

  it('reports progress and stops on abort', async () => {
    const api = client();
    const controller = new AbortController();
    const progress: number[] = [];
    const error = await api.products
      .loadAll({
        limit: 50,
        signal: controller.signal,
        onProgress: ({ rows }) => {
          progress.push(rows);
          if (rows >= 100) controller.abort();
        },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('aborted');
    expect(progress).toEqual([50, 100]);
  });
});

describe('degraded and unparseable records', () => {
  it('sets degraded records aside with their ids and keeps the rest of the page', async () => {
    const api = client();
    const all = await api.listings.loadAll();
    const victims = [all.rows[3]!.id, all.rows[420]!.id];
    await h.control('PUT', '/faults', { degraded_ids: victims });
    try {
      const snapshot = await api.listings.loadAll();
      expect(snapshot.rows).toHaveLength(598);
      expect(snapshot.setAside.map((r) => r.id).sort()).toEqual([...victims].sort());
      expect(snapshot.setAside[0]).toMatchObject({
        kind: 'degraded',
        code: 'serialization_failed',
      });
      const products = await api.products.loadAll();
      expect(products.rows).toHaveLength(598);
      await expect(api.listings.get(victims[0]!)).rejects.toMatchObject({
        code: 'degraded_record',
      });
    } finally {
      await h.control('PUT', '/faults', { degraded_ids: [] });
    }
  });

  it('keeps a record with an odd field (named), sets one without a readable id aside, keeps the page', async () => {
    let odd: string | undefined;
    let broken: string | undefined;
    const proxy = await startFaultProxy(h.url, {
      rewriteBody: (text, info) => {
        if (!info.url.includes('/inventory_items.json') || broken) return text;
        const body = JSON.parse(text) as { inventory_items: Record<string, unknown>[] };
        const row = body.inventory_items[7]!;
        odd = row.id as string;
        row.cost = 12; // a number where the API sends a decimal string
        const idless = body.inventory_items[8]!;
        broken = idless.id as string;
        idless.id = 12; // no readable id: nothing to key the record by
        return JSON.stringify(body);
      },
    });
    try {
      const snapshot = await client(proxy.url).inventoryItems.loadAll();
      expect(snapshot.setAside).toHaveLength(1);
      expect(snapshot.setAside[0]).toMatchObject({ kind: 'unparseable' });
      expect(snapshot.setAside[0]!.issues.join()).toContain('id');
      expect(snapshot.rows.length).toBeGreaterThan(700);
      expect(snapshot.rows.some((r) => r.id === broken)).toBe(false);
      const kept = snapshot.rows.find((r) => r.id === odd)!;
      expect(kept.cost).toBeUndefined();
      expect(kept.unreadable).toEqual(['cost']);
      expect(kept.svc_cert_number).toEqual(expect.any(String));
    } finally {
      await proxy.close();
    }
  });
});

describe('asking ahead', () => {
  it('asks for the next page when the Link header arrives, before the walk reads on', async () => {
    const urls: string[] = [];
    const api = client(h.url, (meta) => urls.push(meta.url));
    const seenAtPage: number[] = [];
    const ids: string[] = [];
    for await (const page of api.listings.pages({ limit: 100 })) {
      ids.push(...page.rows.map((r) => r.id));
      // Hold this page until the next one has been answered: it was asked for without us.
      if (page.meta.links.next !== undefined) {
        const next = page.meta.links.next;
        await expect.poll(() => urls.some((url) => url === api.transport.resolve(next))).toBe(true);
      }
      seenAtPage.push(urls.length);
    }
    expect(ids).toHaveLength(600);
    expect(new Set(ids).size).toBe(600);
    // Six pages, six requests: nothing asked twice, nothing past the end.
    expect(urls).toHaveLength(6);
    expect(seenAtPage[0]).toBeGreaterThanOrEqual(2);
  });

  it('asks nothing ahead of a walk that stops after its first page', async () => {
    const urls: string[] = [];
    const api = client(h.url, (meta) => urls.push(meta.url));
    for await (const page of api.listings.pages({ limit: 1, lookahead: 0 })) {
      expect(page.rows).toHaveLength(1);
      break;
    }
    expect(urls).toHaveLength(1);
  });
});

describe('stale cursors', () => {
  it('restarts from the first page when a cursor went stale, yielding no row twice', async () => {
    const own = await startHarness({ seed: 'demo' });
    try {
      const api = createClient({ baseUrl: own.url, apiKey: DEMO_LIVE_TOKEN });
      const restarts: string[] = [];
      const ids: string[] = [];
      let pages = 0;
      for await (const page of api.listings.pages({
        limit: 100,
        // No page asked for ahead: the clock moves between pages 2 and 3 exactly.
        lookahead: 0,
        onRestart: (error) => restarts.push(error.code),
      })) {
        pages++;
        ids.push(...page.rows.map((r) => r.id));
        // After the second page, move the marketplace clock past the cursor lifetime (an hour).
        if (pages === 2) await own.control('POST', '/clock', { advance_seconds: 3700 });
      }
      expect(restarts).toEqual(['invalid_page_info']);
      expect(ids).toHaveLength(600);
      expect(new Set(ids).size).toBe(600);
      // The restart re-read pages 1 and 2 but yielded them empty.
      expect(pages).toBe(8);
    } finally {
      await own.close();
    }
  });
});

describe('incremental refresh', () => {
  it('fetches only what changed since the last sync, in one request, and merges by id', async () => {
    const own = await startHarness({ seed: 'demo' });
    try {
      const urls: string[] = [];
      const api = createClient({
        baseUrl: own.url,
        apiKey: DEMO_LIVE_TOKEN,
        onResponse: (meta) => urls.push(meta.url),
      });
      const before = await api.products.loadAll();
      const active = before.rows.filter((p) => p.status === 'active').slice(0, 3);
      for (const p of active) {
        const sold = await own.control('POST', `/listings/${p.id}/sell`, {});
        expect(sold.status).toBe(200);
      }
      urls.length = 0;
      const after = await api.products.refresh(before);
      expect(urls).toHaveLength(1);
      expect(urls[0]).toContain('updated_at_min=');
      expect(after.changed.map((p) => p.id)).toEqual(
        expect.arrayContaining(active.map((p) => p.id)),
      );
      expect(after.rows).toHaveLength(before.rows.length);
      for (const p of active) {
        const merged = after.rows.find((r) => r.id === p.id)!;
        expect(merged.svc_unavailable_reason).toBe('sold');
        expect(after.rows.indexOf(merged)).toBe(before.rows.findIndex((r) => r.id === p.id));
      }
      expect(Date.parse(after.syncedAt)).toBeGreaterThanOrEqual(Date.parse(before.syncedAt));
    } finally {
      await own.close();
    }
  });

  it('takes the baseline from /ping server_time when known (the marketplace clock may run ahead)', async () => {
    const own = await startHarness({ seed: 'demo' });
    try {
      // Two days on the marketplace clock: windows end, listings expire (and are updated then).
      await own.control('POST', '/clock', { advance_seconds: 2 * 86_400 });
      // Those updates fall behind the baseline and its overlap (1 s each) on the same clock.
      await own.control('POST', '/clock', { advance_seconds: 3 });
      const api = createClient({ baseUrl: own.url, apiKey: DEMO_LIVE_TOKEN });
      const ping = await api.ping();
      expect(api.transport.clockSource).toBe('ping');
      const before = await api.listings.loadAll();
      expect(Date.parse(before.syncedAt)).toBeGreaterThan(Date.now() + 86_400_000);
      expect(Date.parse(before.syncedAt)).toBeLessThanOrEqual(Date.parse(ping.data.server_time!));
      const active = before.rows.find((l) => l.status === 'active')!;
      await own.control('POST', `/listings/${active.id}/sell`, {});
      const after = await api.listings.refresh(before, { overlapMs: 1000 });
      // A `Date`-based baseline (two days behind) would also return every listing the clock
      // advance expired; the /ping-based one returns only the sale.
      expect(after.changed.map((l) => l.id)).toEqual([active.id]);
      expect(after.rows.find((l) => l.id === active.id)?.status).toBe('archived');
    } finally {
      await own.close();
    }
  });
});
