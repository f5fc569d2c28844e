import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningAppServer } from '../../src/server/app-server';
import { Browser, SIGN_IN_HEAVY_MS, signedInServer } from '../security/auth-http';
import { startServer, startWorld, type World } from '../rules/rules-world';

/**
 * Saved views on the hub (`/hub/views`), over HTTP in front of the real sandbox: each account's
 * own, the same on every device it signs in on; with sign-in off, the one seller's, kept on disk.
 */

let world: World;
let signedIn: RunningAppServer;
let people: Record<'editor' | 'viewer', Browser>;
/** Vera again, on her phone: a second session of the same account. */
let phone: Browser;
const PASSWORD = 'views-password-1234';

beforeAll(async () => {
  world = await startWorld();
  ({ server: signedIn, people } = await signedInServer(
    { upstream: { baseUrl: world.harness.url, apiKey: world.token }, port: 0 },
    { editor: 'eddie', viewer: 'vera' },
    PASSWORD,
  ));
  phone = new Browser(signedIn.url, new URL(signedIn.url).host);
  expect((await phone.signIn('vera', PASSWORD)).status).toBe(303);
}, SIGN_IN_HEAVY_MS);

afterAll(async () => {
  await signedIn?.close();
  await world?.harness.close();
});

const viewsOf = async (browser: Browser, table = 'listings') => {
  const answer = await browser.request(`/hub/views?table=${table}`);
  expect(answer.status, answer.body).toBe(200);
  return (JSON.parse(answer.body) as { views: { name: string; search: string }[] }).views;
};
const fieldsOf = (body: string) => Object.keys(JSON.parse(body).errors ?? {});

describe('saved views on the hub', () => {
  it('a view saved on the desk is on the phone of the same account, and no one else’s', async () => {
    const view = { table: 'listings', name: 'PSA 10s, dearest', search: 'grade=10&grader=PSA' };
    const saved = await people.viewer.write('PUT', '/hub/views', view);
    expect(saved.status, saved.body).toBe(200);
    expect(saved.headers['cache-control']).toBe('no-store');
    expect(await viewsOf(phone)).toEqual([
      { name: view.name, search: view.search, savedAt: expect.any(String) },
    ]);
    expect(await viewsOf(people.editor)).toEqual([]);
    expect(await viewsOf(phone, 'orders')).toEqual([]);

    // The phone replaces it by name and deletes it; the desk sees each.
    await phone.write('PUT', '/hub/views', { ...view, search: 'grader=PSA' });
    expect((await viewsOf(people.viewer)).map((v) => v.search)).toEqual(['grader=PSA']);
    const deleted = await phone.write('DELETE', '/hub/views', {
      table: 'listings',
      name: view.name,
    });
    expect(JSON.parse(deleted.body)).toMatchObject({ deleted: true, views: [] });
    expect(await viewsOf(people.viewer)).toEqual([]);
  });

  it('refuses bad input by field and keeps nothing of it; a table keeps at most 50', async () => {
    const cases: [unknown, string][] = [
      [{ table: 'listings', name: 'x'.repeat(61), search: '' }, 'name'],
      [{ table: 'listings', name: '   ', search: '' }, 'name'],
      [{ table: 'listings', name: 'tab\there', search: '' }, 'name'],
      [{ table: 'listings', name: 'Long', search: `q=${'x'.repeat(2_047)}` }, 'search'],
      [{ table: 'listings', name: 'Odd', search: '?status=active' }, 'search'],
      [{ table: 'payouts', name: 'Odd', search: '' }, 'table'],
      [{ table: 'listings', name: 'Extra', search: '', more: 1 }, 'body'],
    ];
    for (const [body, field] of cases) {
      const refused = await people.editor.write('PUT', '/hub/views', body);
      expect(refused.status, JSON.stringify(body)).toBe(422);
      expect(JSON.parse(refused.body).svc_error.code).toBe('validation_error');
      expect(fieldsOf(refused.body), JSON.stringify(body)).toEqual([field]);
    }
    expect((await people.editor.request('/hub/views?table=nope')).status).toBe(422);
    expect(await viewsOf(people.editor)).toEqual([]);

    for (let n = 1; n <= 50; n++) {
      const put = await people.editor.write('PUT', '/hub/views', {
        table: 'inventory',
        name: `View ${n}`,
        search: `q=${n}`,
      });
      expect(put.status).toBe(200);
    }
    const tooMany = await people.editor.write('PUT', '/hub/views', {
      table: 'inventory',
      name: 'View 51',
      search: '',
    });
    expect(tooMany.status).toBe(422);
    expect(fieldsOf(tooMany.body)).toEqual(['name']);
    // Replacing one of the fifty is not a new one.
    const again = await people.editor.write('PUT', '/hub/views', {
      table: 'inventory',
      name: 'View 7',
      search: 'q=seven',
    });
    expect(again.status).toBe(200);
    expect((await viewsOf(people.editor, 'inventory')).length).toBe(50);
  });

  it('asks a session, and its token for a change', async () => {
    const stranger = new Browser(signedIn.url, new URL(signedIn.url).host);
    expect((await stranger.request('/hub/views?table=listings')).status).toBe(401);
    const view = { table: 'orders', name: 'Paid', search: 'status=closed' };
    expect((await phone.write('PUT', '/hub/views', view, null)).status).toBe(403);
    expect(await viewsOf(phone, 'orders')).toEqual([]);
  });

  it('with sign-in off, the one seller’s views outlive a restart', async () => {
    const path = join(world.folder, 'views.db');
    const call = (server: RunningAppServer, method: string, body?: unknown) =>
      fetch(`${server.url}/hub/views${body ? '' : '?table=orders'}`, {
        method,
        headers: body ? { 'content-type': 'application/json' } : {},
        body: body ? JSON.stringify(body) : null,
      });
    const first = await startServer(world, { views: { path } });
    const put = await call(first, 'PUT', {
      table: 'orders',
      name: 'To ship',
      search: 'status=open',
    });
    expect(put.status).toBe(200);
    await first.close();
    const second = await startServer(world, { views: { path } });
    try {
      const read = (await (await call(second, 'GET')).json()) as { views: { name: string }[] };
      expect(read.views.map((v) => v.name)).toEqual(['To ship']);
    } finally {
      await second.close();
    }
  });
});
