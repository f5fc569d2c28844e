import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LIVE_TOKEN } from '../../src/sandbox';
import {
  buildOpenApiDocument,
  OPENAPI_COPY_PATH,
  openApiCopyText,
} from '../../src/sandbox/openapi/document';
import { startFaultProxy, type FaultProxy } from '../client/fault-proxy';
import { startHarness, type Harness } from '../support/sandbox-harness';
import { startPrismProxy, violationsOf, type PrismProxy } from '../support/prism-proxy';

/** The sandbox describes itself; the copy in the repository is that description, up to date. */

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ seed: 'demo', rateLimit: false });
});
afterAll(() => h.close());

describe('the OpenAPI document', () => {
  it('is served at /_sandbox/openapi.json with this sandbox as its server', async () => {
    const response = await fetch(`${h.url}/_sandbox/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    const served = (await response.json()) as ReturnType<typeof buildOpenApiDocument>;
    expect(served.openapi).toBe('3.1.0');
    expect(served.servers).toEqual([{ url: `${h.url}/2026-07` }]);
    expect(Object.keys(served.paths as object).sort()).toEqual([
      '/inventory_items.json',
      '/inventory_levels.json',
      '/listings.json',
      '/listings/{id}.json',
      '/locations.json',
      '/orders.json',
      '/orders/{id}.json',
      '/ping',
      '/products.json',
      '/products/{id}.json',
    ]);
    expect({ ...served, servers: [] }).toEqual({ ...buildOpenApiDocument(), servers: [] });
  });

  it(`is kept in the repository at ${OPENAPI_COPY_PATH}, up to date (npm run openapi)`, () => {
    const copy = readFileSync(resolve(import.meta.dirname, '../..', OPENAPI_COPY_PATH), 'utf8');
    expect(copy).toBe(openApiCopyText());
  });
});

describe('Prism in front of the sandbox', () => {
  let broken: FaultProxy;
  let prism: PrismProxy;
  beforeAll(async () => {
    // An upstream that breaks the document: each listing's price becomes a number on the way.
    broken = await startFaultProxy(h.url, {
      rewriteBody: (text, info) =>
        info.url.includes('/listings.json')
          ? text.replace(/"price":"([\d.]+)"/g, '"price":$1')
          : text,
    });
    prism = await startPrismProxy(broken.url);
  }, 60_000);
  afterAll(async () => {
    await prism.close();
    await broken.close();
  });

  it('reports nothing for what the sandbox answers as documented', async () => {
    const response = await fetch(`${prism.url}/locations.json`, {
      headers: { 'X-Service-Access-Token': DEMO_LIVE_TOKEN },
    });
    expect(response.status).toBe(200);
    expect(violationsOf(response.headers)).toEqual([]);
  });

  it('reports a response that breaks the document (so a violation can fail the run)', async () => {
    const response = await fetch(`${prism.url}/listings.json?limit=1`, {
      headers: { 'X-Service-Access-Token': DEMO_LIVE_TOKEN },
    });
    expect(response.status).toBe(200);
    const violations = violationsOf(response.headers);
    expect(violations.some((v) => v.location[0] === 'response')).toBe(true);
    expect(JSON.stringify(violations)).toContain('price');
  });
});
