import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rewriteLinkHeader, upstreamUrlOf } from '../../src/server/proxy-url';
import type { RunningAppServer } from '../../src/server/app-server';
import { startAppOver, startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';

/**
 * "Credentials in the query string pass under ten spellings": of a query the browser wrote, the
 * proxy forwards only the parameters the spec documents for its path; a `Link` the upstream wrote
 * goes back as written, credentials out. A fake upstream records every URL it is sent.
 */
let upstream: FakeUpstream;
let app: RunningAppServer;
const sent: { method: string; url: string }[] = [];

beforeAll(async () => {
  upstream = await startFakeUpstream((request, response) => {
    sent.push({ method: request.method ?? '', url: request.url ?? '' });
    const next = `${upstream.url}/2026-07/listings.json?limit=2&page_info=abc&access_token[]=stolen&api_token=stolen&order=desc`;
    response.writeHead(200, {
      'content-type': 'application/json',
      link: `<${next}>; rel="next"`,
    });
    response.end('{"listings":[]}');
  });
  app = await startAppOver(upstream.url, 'svc_test_QueryKey00000000000000000001');
});

afterAll(async () => {
  await app?.close();
  await upstream?.close();
});

/** The query the upstream received for one browser call. */
async function forwarded(path: string, init: RequestInit = {}): Promise<URLSearchParams> {
  const before = sent.length;
  const answer = await fetch(`${app.url}/api/2026-07${path}`, init);
  await answer.arrayBuffer();
  expect(sent.length).toBe(before + 1);
  return new URL(sent[before]!.url, 'http://upstream').searchParams;
}

const SPELLINGS = [
  'access_token[]',
  'access.token',
  'api_token',
  'client_secret',
  'accessToken',
  'auth_token',
  'bearer',
  'private_key',
  'session',
  'X-Service-Access-Token',
  'access%5Ftoken',
  'token[0]',
];

describe('query parameters', () => {
  for (const name of SPELLINGS) {
    it(`drops ${name}= (any value) and keeps the documented ones`, async () => {
      const query = await forwarded(
        `/listings.json?limit=5&${name}=AttackerToken0123456789&fields=id,title`,
      );
      expect([...query.keys()].sort()).toEqual(['fields', 'limit']);
      expect(query.get('limit')).toBe('5');
      expect(query.toString()).not.toMatch(/Attacker/);
    });
  }

  it('keeps what the dashboard sends: a collection walk, orders by status, a single view', async () => {
    const walk = await forwarded(
      '/listings.json?limit=250&fields=id,status&updated_at_min=2026-07-01T00:00:00Z',
    );
    expect(Object.fromEntries(walk)).toEqual({
      limit: '250',
      fields: 'id,status',
      updated_at_min: '2026-07-01T00:00:00Z',
    });
    const orders = await forwarded('/orders.json?status=open&limit=50&sort=desc');
    expect(Object.fromEntries(orders)).toEqual({ status: 'open', limit: '50' });
    const cursor = await forwarded('/products.json?page_info=abc&limit=2');
    expect(Object.fromEntries(cursor)).toEqual({ page_info: 'abc', limit: '2' });
    const single = await forwarded('/listings/lst_1.json?fields=id&limit=5&token=x');
    expect(Object.fromEntries(single)).toEqual({ fields: 'id' });
    const item = await forwarded('/orders/ord_1.json?fields=id,name&status=open');
    expect(Object.fromEntries(item)).toEqual({ fields: 'id,name' });
  });

  it('forwards no query at all to ping, locations and writes', async () => {
    expect([...(await forwarded('/ping?limit=1&api_token=x'))]).toEqual([]);
    expect([...(await forwarded('/locations.json?limit=1'))]).toEqual([]);
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const path = method === 'POST' ? '/listings.json' : '/listings/lst_1.json';
      const query = await forwarded(`${path}?fields=id&client_secret=x`, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(method === 'DELETE' ? {} : { body: '{"listing":{}}' }),
      });
      expect([...query], method).toEqual([]);
    }
  });

  it("rewrites a Link to carry the upstream's own query without its credentials", async () => {
    const answer = await fetch(`${app.url}/api/2026-07/listings.json?limit=2`);
    const link = answer.headers.get('link') ?? '';
    const target = new URL(/<([^>]+)>/.exec(link)![1]!);
    expect(target.origin).toBe(app.url);
    expect(link).not.toMatch(/stolen|access_token|api_token/);
    const { slabdesk_link: seal, ...rest } = Object.fromEntries(target.searchParams);
    expect(seal).toMatch(/^[\w-]{43}$/);
    expect(rest).toEqual({ limit: '2', page_info: 'abc', order: 'desc' });
    // Following it sends the upstream's query on as it was written, credentials out.
    const query = await forwarded(`${target.pathname.replace('/api/2026-07', '')}${target.search}`);
    expect(query.toString()).toBe('limit=2&page_info=abc&order=desc');
  });

  it('reads a link whose seal was changed or moved as a query of the browser: documented only', async () => {
    const answer = await fetch(`${app.url}/api/2026-07/listings.json?limit=2`);
    const target = new URL(/<([^>]+)>/.exec(answer.headers.get('link') ?? '')![1]!);
    const path = target.pathname.replace('/api/2026-07', '');
    const forged = `${path}${target.search.replace(/page_info=abc/, 'page_info=abc&client_secret=x')}`;
    expect(Object.fromEntries(await forwarded(forged))).toEqual({ limit: '2', page_info: 'abc' });
    const elsewhere = `/orders.json${target.search}`;
    expect(Object.fromEntries(await forwarded(elsewhere))).toEqual({
      limit: '2',
      page_info: 'abc',
    });
  });

  it('takes a credential out of a Link however it is spelled, and keeps the rest as written', () => {
    const base = 'http://upstream.test/partner/';
    for (const pair of [
      ...SPELLINGS.map((name) => `${name}=AttackerToken0123456789`),
      'page_note=svc_live_AttackerKey0000000000001',
      'note=Bearer%20AttackerToken0123456789',
    ]) {
      const written = `/partner/2026-07/inventory_items?page_info=p1&${pair}&view=compact`;
      const out = rewriteLinkHeader(`<${written}>; rel="next"`, base, 'http://app.test', base);
      const next = new URL(/<([^>]+)>/.exec(out)![1]!);
      expect(out, pair).not.toMatch(/Attacker/);
      expect(upstreamUrlOf(next, 'http://upstream.test/partner'), pair).toBe(
        'http://upstream.test/partner/2026-07/inventory_items?page_info=p1&view=compact',
      );
    }
  });
});
