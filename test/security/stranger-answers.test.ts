import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import { distPages } from '../../src/server/dist-pages';
import { raw, type RawAnswer } from '../support/raw-http';
import { startHarness, type Harness } from '../support/sandbox-harness';
import { fakeDist } from './auth-http';

/**
 * What a stranger's request that no route answers gets back: every refusal of the server's own is
 * the API's error envelope (`svc_error.code`), never text of another shape, and changes nothing.
 * The finding "the request guard answers `Refused: …` as plain text": a method no route takes, an
 * unknown Host and a cross-site Origin were refused in words the page's error reader cannot read.
 */

let harness: Harness;
let app: RunningAppServer;

beforeAll(async () => {
  harness = await startHarness();
  const { token } = await harness.seller();
  app = await startAppServer(
    { upstream: { baseUrl: harness.url, apiKey: token }, port: 0, activity: { path: ':memory:' } },
    async () => distPages(fakeDist()),
  );
});

afterAll(async () => {
  await app?.close();
  await harness?.close();
});

const own = () => ({ origin: app.url, 'sec-fetch-site': 'same-origin' });

/** The answer is the envelope with `code`, as JSON, never kept by a cache. */
function expectEnvelope(answer: RawAnswer, status: number, code: string) {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(answer.headers['cache-control']).toBe('no-store');
  expect(JSON.parse(answer.body)).toMatchObject({ svc_error: { code } });
}

describe('the request guard’s refusals', () => {
  it('answers a method no route takes in the envelope, and what it names is left as it was', async () => {
    const put = await raw(app.url, '/hub/costs/item-1', {
      method: 'PUT',
      headers: { ...own(), 'content-type': 'application/json' },
      body: JSON.stringify({ cost: '12.50' }),
      whole: true,
    });
    expect(put.status).toBe(200);
    for (const method of ['DELETE', 'PATCH', 'OPTIONS', 'PROPFIND', 'TRACE']) {
      const answer = await raw(app.url, '/hub/costs/item-1', { method, headers: own() });
      expectEnvelope(answer, 405, 'method_not_allowed');
    }
    const costs = JSON.parse((await raw(app.url, '/hub/costs')).body) as {
      costs: { itemId: string; cost: string }[];
    };
    expect(costs.costs).toMatchObject([{ itemId: 'item-1', cost: '12.50' }]);
  });

  it('answers an unknown Host in the envelope, on the API and the page', async () => {
    for (const path of ['/hub/costs', '/', '/listings']) {
      const answer = await raw(app.url, path, { headers: { host: 'evil.example' } });
      expectEnvelope(answer, 421, 'unknown_host');
      expect(answer.body).not.toContain('costs');
    }
  });

  it('answers a call from another site in the envelope', async () => {
    const calls: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' },
    ];
    for (const headers of calls) {
      const answer = await raw(app.url, '/hub/costs', { headers });
      expectEnvelope(answer, 403, 'cross_site');
    }
  });
});
