import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLink, startHarness, type Harness } from '../support/sandbox-harness';
import { addListings } from '../support/fixtures';

let h: Harness;
let seller: { sellerId: string; token: string };
let ids: string[];
/** Every listing id of the seller, oldest first. */
const all: string[] = [];

beforeAll(async () => {
  h = await startHarness({ rateLimit: false });
  seller = await h.seller();
  ids = addListings(h.sandbox, seller.sellerId, 1000);
  all.push(...ids);
});
afterAll(() => h.close());

async function page(url: string, token = seller.token) {
  const response = await h.api(url, { token });
  const body = (await response.json()) as Record<string, unknown>;
  return { response, body, links: parseLink(response.headers.get('link')) };
}

describe('cursor walks', () => {
  it.each([1, 7, 50, 250])(
    'walks 1,000 rows at limit %i with rows appended mid-walk: none lost, none twice',
    async (limit) => {
      const existing = [...all];
      const seen: string[] = [];
      let url: string | undefined = `/listings.json?limit=${limit}`;
      let appended: string[] = [];
      let pages = 0;
      while (url) {
        const { response, body, links } = await page(url);
        expect(response.status).toBe(200);
        expect(Object.keys(body)).toEqual(['listings']);
        const rows = body.listings as { id: string }[];
        expect(rows.length).toBeLessThanOrEqual(limit);
        seen.push(...rows.map((r) => r.id));
        pages++;
        if (pages === 2) {
          appended = addListings(h.sandbox, seller.sellerId, 3, {
            titlePrefix: `Appended ${limit}`,
          });
          all.push(...appended);
        }
        url = links.next;
      }
      expect(new Set(seen).size).toBe(seen.length);
      expect(existing.length).toBeGreaterThanOrEqual(1000);
      expect(seen).toEqual([...existing, ...appended]);
    },
    // A thousand round trips at limit 1, through Prism on a busy machine: a bound, not a figure.
    120_000,
  );

  it('puts paging only in the Link header: next and previous, none at the ends', async () => {
    const first = await page('/listings.json?limit=100');
    expect(first.links.previous).toBeUndefined();
    expect(first.links.next).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/2026-07\/listings\.json\?limit=100&page_info=/,
    );
    const second = await page(first.links.next!);
    expect(second.links.previous).toBeDefined();
    const back = await page(second.links.previous!);
    expect((back.body.listings as { id: string }[]).map((l) => l.id)).toEqual(
      (first.body.listings as { id: string }[]).map((l) => l.id),
    );
    expect(back.links.previous).toBeUndefined();
    const all = await page('/listings.json?limit=250&updated_at_min=2100-01-01');
    expect(all.body.listings).toEqual([]);
    expect(all.response.headers.get('link')).toBeNull();
  });

  it('keeps limit and fields through the cursor and lets limit change', async () => {
    const first = await page('/listings.json?limit=5&fields=id,price');
    const rows = first.body.listings as Record<string, unknown>[];
    expect(rows.every((r) => Object.keys(r).join() === 'id,price')).toBe(true);
    const next = await page(first.links.next!);
    expect(
      (next.body.listings as Record<string, unknown>[]).every(
        (r) => Object.keys(r).join() === 'id,price',
      ),
    ).toBe(true);
    const changed = await page(`${first.links.next!.replace('limit=5', 'limit=9')}`);
    expect((changed.body.listings as unknown[]).length).toBe(9);
  });

  it('walks newest first under order=created_at desc', async () => {
    const first = await page('/listings.json?limit=3&order=created_at%20desc');
    const rows = (first.body.listings as { id: string }[]).map((r) => r.id);
    const all = (await page('/listings.json?limit=250&order=created_at%20asc')).body.listings as {
      id: string;
    }[];
    expect(rows[0]).not.toBe(all[0]!.id);
    const second = await page(first.links.next!);
    const more = (second.body.listings as { id: string }[]).map((r) => r.id);
    expect(new Set([...rows, ...more]).size).toBe(6);
  });
});

describe('cursor errors', () => {
  it('refuses a malformed or forged cursor with invalid_page_info', async () => {
    const first = await page('/listings.json?limit=2');
    const cursor = new URL(first.links.next!).searchParams.get('page_info')!;
    const [body, signature] = cursor.split('.');
    const decoded = JSON.parse(Buffer.from(body!, 'base64url').toString()) as unknown[];
    decoded[5] = 0; // try to rewind the keyset
    const forged = `${Buffer.from(JSON.stringify(decoded)).toString('base64url')}.${signature}`;
    for (const bad of ['garbage', forged, `${body}.AAAA`, `${cursor}x`]) {
      const response = await h.api(`/listings.json?page_info=${encodeURIComponent(bad)}`, {
        token: seller.token,
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { svc_error: { code: string } }).svc_error.code).toBe(
        'invalid_page_info',
      );
    }
  });

  it('refuses a cursor from another endpoint with page_info_resource_mismatch', async () => {
    const first = await page('/listings.json?limit=2');
    const cursor = new URL(first.links.next!).searchParams.get('page_info')!;
    for (const path of ['/orders.json', '/products.json', '/inventory_items.json']) {
      const response = await h.api(`${path}?page_info=${cursor}`, { token: seller.token });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { svc_error: { code: string } }).svc_error.code).toBe(
        'page_info_resource_mismatch',
      );
    }
  });

  it('refuses a different sort with page_info_sort_mismatch', async () => {
    const first = await page('/listings.json?limit=2');
    const response = await h.api(`${first.links.next!}&order=created_at%20desc`, {
      token: seller.token,
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { svc_error: { code: string } }).svc_error.code).toBe(
      'page_info_sort_mismatch',
    );
  });

  it('refuses changed filters with page_info_filter_mismatch naming them; the same filters pass', async () => {
    const first = await page(
      '/orders.json?limit=1&status=open&updated_at_min=2020-01-01',
      seller.token,
    );
    // The seller has no orders: make a walk over listings with a filter instead.
    expect(first.response.status).toBe(200);
    const walk = await page('/listings.json?limit=2&updated_at_min=2020-01-01');
    const next = walk.links.next!;
    const same = await h.api(`${next}&updated_at_min=2020-01-01`, { token: seller.token });
    expect(same.status).toBe(200);
    const changed = await h.api(`${next}&updated_at_min=2021-01-01`, { token: seller.token });
    expect(changed.status).toBe(400);
    const body = (await changed.json()) as {
      svc_error: { code: string; changed_params: string[] };
    };
    expect(body.svc_error).toMatchObject({
      code: 'page_info_filter_mismatch',
      changed_params: ['updated_at_min'],
    });
  });

  it('refuses a stale cursor (expired with its data) so the client restarts', async () => {
    const first = await page('/listings.json?limit=2');
    await h.control('POST', '/clock', { advance_seconds: 2 * 3600 });
    const response = await h.api(first.links.next!, { token: seller.token });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { errors: string; svc_error: { code: string } };
    expect(body.svc_error.code).toBe('invalid_page_info');
    expect(body.errors).toMatch(/expired/);
    const restarted = await page('/listings.json?limit=2');
    expect(restarted.response.status).toBe(200);
  });
});

describe('updated_at_min', () => {
  it('returns only rows updated at or after the moment, as a date or a date-time', async () => {
    const { store, clock } = h.sandbox.context;
    const before = new Date(clock.now() + 1000).toISOString();
    await h.control('POST', '/clock', { advance_seconds: 5 });
    store.listings.update(ids[10]!, { title: 'Edited', updated_at: clock.now() });
    const changed = await page(`/listings.json?updated_at_min=${encodeURIComponent(before)}`);
    expect((changed.body.listings as { id: string }[]).map((l) => l.id)).toEqual([ids[10]]);
    const byDate = await page('/listings.json?limit=1&updated_at_min=2000-01-01');
    expect((byDate.body.listings as unknown[]).length).toBe(1);
  });
});
