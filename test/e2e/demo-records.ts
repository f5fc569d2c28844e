import { expect } from '@playwright/test';
import { DEMO_LIVE_TOKEN } from '../../src/sandbox';
import { control, sandboxUrl } from './support';

export interface DemoRecords {
  /** Active listings' ids, at most twelve. */
  listings: string[];
  /** One order's id. */
  order: string;
}

/** Active listings and an order to show, from the sandbox itself (each test finds its own). */
export async function findDemoRecords(): Promise<DemoRecords> {
  const { products } = await control<{ products: { id: string; status: string }[] }>(
    'GET',
    '/listings',
  );
  // The demo key's bucket is shared with the suite's servers: a 429 is waited out, as a client does.
  let response: Response;
  for (let attempt = 0; ; attempt++) {
    response = await fetch(`${sandboxUrl()}/2026-07/orders.json?status=any&limit=1`, {
      headers: { 'X-Service-Access-Token': DEMO_LIVE_TOKEN },
    });
    if (response.status !== 429 || attempt >= 10) break;
    await response.body?.cancel();
    await new Promise((resolve) =>
      setTimeout(resolve, 1000 * Number(response.headers.get('retry-after') ?? 1)),
    );
  }
  expect(response.status, 'the demo orders answer').toBe(200);
  const { orders } = (await response.json()) as { orders: { id: string }[] };
  const listings = products.filter((p) => p.status === 'active').map((p) => p.id);
  expect(listings.length, 'active demo listings').toBeGreaterThan(5);
  expect(orders[0], 'a demo order').toBeDefined();
  return { listings: listings.slice(0, 12), order: orders[0]!.id };
}
