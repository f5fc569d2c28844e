import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningAppServer } from '../../src/server/app-server';
import { SIGN_IN_HEAVY_MS, signedInServer, type Browser } from '../security/auth-http';
import {
  FLOOR,
  hub,
  makeListings,
  markdownRule,
  startServer,
  startWorld,
  type World,
} from '../rules/rules-world';

/**
 * The hub's kept costs (`/hub/costs`) over HTTP, on the dashboard's server in front of the real
 * sandbox: the API documents no write of an inventory item's `cost`, so the hub keeps the
 * seller's own, and the rules read it over the marketplace's.
 */

let world: World;
let server: RunningAppServer;
let signedIn: RunningAppServer;
let people: Record<'editor' | 'viewer', Browser>;
const PASSWORD = 'costs-password-1234';

beforeAll(async () => {
  world = await startWorld();
  server = await startServer(world);
  // Signed in, with a page to serve (the session's CSRF token is in it).
  ({ server: signedIn, people } = await signedInServer(
    {
      upstream: { baseUrl: world.harness.url, apiKey: world.token },
      port: 0,
      activity: { path: ':memory:' },
    },
    { editor: 'eddie', viewer: 'vera' },
    PASSWORD,
  ));
}, SIGN_IN_HEAVY_MS);

afterAll(async () => {
  await server?.close();
  await signedIn?.close();
  await world?.harness.close();
});

async function call(method: string, path: string, body?: unknown) {
  const text =
    body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: text === undefined ? {} : { 'content-type': 'application/json' },
    body: text,
  });
  const answer = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    json: (answer ? JSON.parse(answer) : {}) as {
      cost?: { itemId: string; cost: string; setBy: string } | null;
      costs?: { itemId: string; cost: string }[];
      errors?: Record<string, string[]>;
      svc_error?: { code: string };
    },
  };
}

describe('the kept costs', () => {
  it('sets, reads, replaces and forgets a card cost', async () => {
    const set = await call('PUT', '/hub/costs/inv_kept_1', { cost: '120.5' });
    expect(set.status).toBe(200);
    expect(set.headers.get('cache-control')).toBe('no-store');
    expect(set.json.cost).toMatchObject({
      itemId: 'inv_kept_1',
      cost: '120.50',
      setBy: 'This computer',
    });
    await call('PUT', '/hub/costs/inv_kept_1', { cost: '99.99' });
    const read = await call('GET', '/hub/costs');
    expect(read.json.costs!.filter((cost) => cost.itemId === 'inv_kept_1')).toEqual([
      expect.objectContaining({ cost: '99.99' }),
    ]);
    const forgot = await call('PUT', '/hub/costs/inv_kept_1', { cost: null });
    expect(forgot.json.cost).toBeNull();
    const after = await call('GET', '/hub/costs');
    expect(after.json.costs!.some((cost) => cost.itemId === 'inv_kept_1')).toBe(false);
  });

  it('refuses bad input field by field, and keeps nothing of it', async () => {
    for (const body of [
      { cost: '-5.00' },
      { cost: '12.345' },
      { cost: 'twelve' },
      { cost: '2000000.00' },
      { cost: 12 },
      { cost: '12.00', extra: true },
      {},
    ]) {
      const refused = await call('PUT', '/hub/costs/inv_bad_1', body);
      expect(refused.status, JSON.stringify(body)).toBe(422);
      expect(refused.json.svc_error?.code).toBe('validation_error');
      expect(Object.keys(refused.json.errors ?? {}).length).toBeGreaterThan(0);
    }
    const badId = await call('PUT', '/hub/costs/inv%20bad', { cost: '1.00' });
    expect(badId.status).toBe(422);
    expect(Object.keys(badId.json.errors ?? {})).toEqual(['itemId']);
    const huge = await call('PUT', '/hub/costs/inv_bad_1', {
      cost: '1.00',
      pad: 'x'.repeat(4_000),
    });
    expect(huge.status).toBe(413);
    const notJson = await call('PUT', '/hub/costs/inv_bad_1', '{"cost":');
    expect(notJson.status).toBe(400);
    const read = await call('GET', '/hub/costs');
    expect(read.json.costs!.some((cost) => cost.itemId.startsWith('inv_bad'))).toBe(false);
  });

  it('lets a viewer read and only an editor set', async () => {
    const byViewer = await people.viewer.write('PUT', '/hub/costs/inv_roles_1', { cost: '10.00' });
    expect(byViewer.status).toBe(403);
    const noToken = await people.editor.write(
      'PUT',
      '/hub/costs/inv_roles_1',
      { cost: '10.00' },
      null,
    );
    expect(noToken.status).toBe(403);
    const byEditor = await people.editor.write('PUT', '/hub/costs/inv_roles_1', { cost: '10.00' });
    expect(byEditor.status, byEditor.body).toBe(200);
    expect(JSON.parse(byEditor.body)).toMatchObject({ cost: { cost: '10.00', setBy: 'eddie' } });
    const read = await people.viewer.request('/hub/costs');
    expect(read.status).toBe(200);
    expect(JSON.parse(read.body).costs).toEqual([
      expect.objectContaining({ itemId: 'inv_roles_1', cost: '10.00' }),
    ]);
  });

  it('reaches the rules: a kept cost is read over the marketplace’s', async () => {
    const [noCost, marketCost] = await makeListings(world, 'KC-1', [
      { price: '200.00', cost: null },
      { price: '200.00', cost: '100.00' },
    ]);
    const created = await hub<{ rule: { id: number } }>(server, 'POST', '', {
      ...markdownRule('KC-1'),
      floor: FLOOR,
    });
    expect(created.status).toBe(201);
    const preview = async () => {
      const answer = await hub<{
        items: { listingId: string; kind: string; reason: string | null; floor: string | null }[];
      }>(server, 'POST', '/preview', { ruleId: created.body.rule.id });
      expect(answer.status).toBe(200);
      return new Map(answer.body.items.map((item) => [item.listingId, item]));
    };
    const before = await preview();
    expect(before.get(noCost!.id)).toMatchObject({ kind: 'skip', reason: 'no_cost' });
    // Cost 100: floor = break-even of 110 at 12 % fee = 125.00.
    expect(before.get(marketCost!.id)).toMatchObject({ floor: '125.00' });

    expect((await call('PUT', `/hub/costs/${noCost!.cardId}`, { cost: '100.00' })).status).toBe(
      200,
    );
    expect((await call('PUT', `/hub/costs/${marketCost!.cardId}`, { cost: '160.00' })).status).toBe(
      200,
    );
    const after = await preview();
    expect(after.get(noCost!.id)).toMatchObject({ kind: 'write', floor: '125.00' });
    // Cost 160 + 10 % = 176 to cover at 12 %: 200.00 floor; the kept cost, not the marketplace's.
    expect(after.get(marketCost!.id)!.floor).toBe('200.00');
  });
});
