import { expect } from '@playwright/test';
import { DEMO_LIVE_TOKEN } from '../../src/sandbox';
import { control, sandboxUrl } from './support';

export interface DemoRecords {
  /** The first active listing's id. */
  listing: string;
  /** Active listings' ids, at most twelve. */
  listings: string[];
  /** One order's id. */
  order: string;
}

/**
 * A call of the sandbox's API with the demo key (a path, or a URL the API handed out). The key's bucket is shared with the suite's
 * servers: a 429 is waited out, as a client does.
 */
export async function demoApiFetch(
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    const url = /^https?:/.test(path) ? path : `${sandboxUrl()}/2026-07${path}`;
    const response = await fetch(url, {
      method: init.method ?? 'GET',
      headers: {
        'X-Service-Access-Token': DEMO_LIVE_TOKEN,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    if (response.status !== 429 || attempt >= 10) return response;
    await response.body?.cancel();
    await new Promise((resolve) =>
      setTimeout(resolve, 1000 * Number(response.headers.get('retry-after') ?? 1)),
    );
  }
}

/** Active listings and an order to show, from the sandbox itself (each test finds its own). */
export async function findDemoRecords(): Promise<DemoRecords> {
  const { products } = await control<{ products: { id: string; status: string }[] }>(
    'GET',
    '/listings',
  );
  const response = await demoApiFetch('/orders.json?status=any&limit=1');
  expect(response.status, 'the demo orders answer').toBe(200);
  const { orders } = (await response.json()) as { orders: { id: string }[] };
  const listings = products.filter((p) => p.status === 'active').map((p) => p.id);
  expect(listings.length, 'active demo listings').toBeGreaterThan(5);
  expect(orders[0], 'a demo order').toBeDefined();
  return { listing: listings[0]!, listings: listings.slice(0, 12), order: orders[0]!.id };
}
