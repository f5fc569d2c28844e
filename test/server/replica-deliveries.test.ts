import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningAppServer } from '../../src/server/app-server';
import { startCountingProxy, type CountingProxy } from '../support/counting-proxy';
import {
  hub,
  makeListings,
  markdownRule,
  startServer,
  startWorld,
  type World,
} from '../rules/rules-world';
import { deliver } from './replica-world';

/**
 * The replica kept current by the sandbox's own signed deliveries (a webhook registered with it),
 * newest-wins by the record's `updated_at`; and the rules reading it, counted at the upstream.
 */
let world: World;
let proxy: CountingProxy;
let server: RunningAppServer;
let made: { id: string; cardId: string }[];

beforeAll(async () => {
  world = await startWorld();
  made = await makeListings(
    world,
    'RD-1',
    Array.from({ length: 20 }, (_, i) => ({ price: `${200 + i}.00`, cost: '30.00' })),
  );
  proxy = await startCountingProxy(world.harness.url);
  server = await startServer(world, {
    upstream: { baseUrl: proxy.url, apiKey: world.token },
    hub: { registerWith: { sandboxUrl: world.harness.url, sellerId: world.sellerId } },
  });
  await server.replica.ready();
  expect(server.hub.receivesWebhooks()).toBe(true);
});

afterAll(async () => {
  await server?.close();
  await proxy?.close();
  await world?.harness.close();
});

/** A price set elsewhere (straight at the API), and the replica's row seen to take it. */
async function priceSetElsewhere(id: string, price: string): Promise<void> {
  const put = await world.harness.api(`/listings/${id}.json`, {
    token: world.token,
    method: 'PUT',
    body: { listing: { price } },
  });
  expect(put.status).toBe(200);
  await expect
    .poll(() => server.replica.store.row('listings', id)?.body.price, { timeout: 10_000 })
    .toBe(price);
}

describe('deliveries', () => {
  it('a change made elsewhere reaches the row by its delivery, with a new change number', async () => {
    const id = made[0]!.id;
    const before = server.replica.store.row('listings', id)!;
    await priceSetElsewhere(id, '180.00');
    const after = server.replica.store.row('listings', id)!;
    expect(after.change).toBeGreaterThan(before.change);
    expect(Date.parse(after.updatedAt!)).toBeGreaterThanOrEqual(Date.parse(before.updatedAt!));
  });

  it('an older delivery does not overwrite a newer row; a newer one does', async () => {
    const id = made[1]!.id;
    const row = server.replica.store.row('listings', id)!;
    const product = (updatedAt: string, price: string) => ({
      id,
      title: row.body.title,
      status: 'active',
      variants: [{ price }],
      updated_at: updatedAt,
    });
    const older = new Date(Date.parse(row.updatedAt!) - 60_000).toISOString();
    expect(
      await deliver(server, 'products/update', product(older, '11.00'), 'evt_replica_old_1'),
    ).toBe(200);
    expect(server.replica.store.row('listings', id)).toEqual(row);

    const newer = new Date(Date.parse(row.updatedAt!) + 1_000).toISOString();
    expect(
      await deliver(server, 'products/update', product(newer, '12.00'), 'evt_replica_new_1'),
    ).toBe(200);
    const now = server.replica.store.row('listings', id)!;
    expect(now.body.price).toBe('12.00');
    expect(now.updatedAt).toBe(newer);
    expect(now.change).toBeGreaterThan(row.change);
    // The card and the rest of the row stay as read.
    expect(now.body.card).toEqual(row.body.card);
  });

  it('a sale reaches the listing and the new order by their deliveries', async () => {
    const id = made[2]!.id;
    const sold = await world.harness.control<{ order: { id: string } }>(
      'POST',
      `/listings/${id}/sell`,
      {},
    );
    expect(sold.status).toBe(200);
    await expect
      .poll(() => server.replica.store.row('orders', sold.body.order.id)?.body.id, {
        timeout: 10_000,
      })
      .toBe(sold.body.order.id);
    await expect
      .poll(() => server.replica.store.row('listings', id)?.body.unavailable_reason, {
        timeout: 10_000,
      })
      .toBe('sold');
  });
});

describe('the rules read the replica', () => {
  it('a preview reads no listings or costs from the upstream once the replica is filled', async () => {
    const created = await hub<{ rule: { id: number } }>(server, 'POST', '', markdownRule('RD-1'));
    expect(created.status).toBe(201);
    const from = proxy.log.length;
    for (let i = 0; i < 3; i++) {
      const preview = await hub<{ read: number; items: { listingId: string }[] }>(
        server,
        'POST',
        '/preview',
        { ruleId: created.body.rule.id },
      );
      expect(preview.status).toBe(200);
      expect(preview.body.read).toBe(20);
    }
    const reads = proxy.log
      .slice(from)
      .filter((line) => /listings|inventory_items|products/.test(line));
    expect(reads).toEqual([]);
  });

  it('a listing changed elsewhere is previewed as its delivery left it', async () => {
    const id = made[3]!.id;
    const put = await world.harness.api(`/listings/${id}.json`, {
      token: world.token,
      method: 'PUT',
      body: { listing: { price: '400.00' } },
    });
    expect(put.status).toBe(200);
    await expect
      .poll(() => server.replica.store.row('listings', id)?.body.price, { timeout: 10_000 })
      .toBe('400.00');
    const preview = await hub<{ items: { listingId: string; before?: { price?: string } }[] }>(
      server,
      'POST',
      '/preview',
      { definition: markdownRule('RD-1') },
    );
    expect(preview.status).toBe(200);
    expect(preview.body.items.find((item) => item.listingId === id)?.before?.price).toBe('400.00');
  });
});

describe('with no webhook', () => {
  it('a listing write through the proxy is set on its row from its answer', async () => {
    const plain = await startServer(world, {
      upstream: { baseUrl: proxy.url, apiKey: world.token },
    });
    try {
      await plain.replica.ready();
      const id = made[4]!.id;
      const before = plain.replica.store.row('listings', id)!;
      const from = proxy.log.length;
      const put = await fetch(`${plain.url}/api/2026-07/listings/${id}.json`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ listing: { price: '333.00' } }),
      });
      expect(put.status).toBe(200);
      await put.text();
      await expect
        .poll(() => plain.replica.store.row('listings', id)?.body.price, { timeout: 5_000 })
        .toBe('333.00');
      expect(plain.replica.store.row('listings', id)!.change).toBeGreaterThan(before.change);
      // Only the write reached the upstream: no read brought the price.
      expect(proxy.log.slice(from)).toEqual([`PUT /2026-07/listings/${id}.json`]);
    } finally {
      await plain.close();
    }
  });

  it('a preview costs one updated_at_min read of listings and costs, never a walk', async () => {
    const plain = await startServer(world, {
      upstream: { baseUrl: proxy.url, apiKey: world.token },
    });
    try {
      await plain.replica.ready();
      expect(plain.hub.receivesWebhooks()).toBe(false);
      const from = proxy.log.length;
      const preview = await hub<{ read: number }>(plain, 'POST', '/preview', {
        definition: markdownRule('RD-1'),
      });
      expect(preview.status).toBe(200);
      expect(preview.body.read).toBe(20);
      const reads = proxy.log.slice(from).filter((line) => /listings|inventory_items/.test(line));
      expect(reads.length).toBeGreaterThan(0);
      for (const line of reads) expect(line).toMatch(/updated_at_min=/);
    } finally {
      await plain.close();
    }
  });
});

// Last: its round reads the whole store, which the counting tests above must not see.
describe('a lost registration', () => {
  it('a change made while our endpoint was disabled is read as soon as the hub registers again', async () => {
    const id = made[5]!.id;
    const listed = await world.harness.control<{ webhooks: { id: string; url: string }[] }>(
      'GET',
      `/webhooks?seller_id=${encodeURIComponent(world.sellerId)}`,
    );
    const ours = listed.body.webhooks.find((webhook) => webhook.url.endsWith('/hub/webhooks'))!;
    const off = await world.harness.control('PATCH', `/webhooks/${ours.id}`, { enabled: false });
    expect(off.status).toBe(200);
    // No delivery carries it (the endpoint was off): the round the hub runs on registering does.
    await priceSetElsewhere(id, '190.00');
  });
});
