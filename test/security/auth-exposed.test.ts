import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import { distPages } from '../../src/server/dist-pages';
import { startHarness, type Harness } from '../support/sandbox-harness';
import { raw } from '../support/raw-http';
import {
  Browser,
  codeOf,
  fakeDist,
  listingAt100,
  listingOf,
  setCookies,
  SIGN_IN_HEAVY_MS,
  usersDb,
} from './auth-http';

/**
 * The finding "Anyone can use the seller's key": a server set up for a deployment (its public
 * name in the allowed hosts) answered a plain PUT or DELETE from anyone. Now every API call,
 * page and event stream needs a signed-in session; writes carry the session's CSRF token and
 * stay within the account's role.
 */
const PUBLIC = 'cards.example.com';
const PASSWORD = {
  owner: 'owner password 1',
  editor: 'editor password 1',
  viewer: 'viewer pw 123',
};

let harness: Harness;
let token: string;
let app: RunningAppServer;
let host: string;

const listingNow = (id: string) => listingOf(harness, token, id);
const freshListing = () => listingAt100(harness, token);

const browser = (extra: Record<string, string> = {}) => new Browser(app.url, host, extra);

beforeAll(async () => {
  harness = await startHarness();
  ({ token } = await harness.seller());
  const db = await usersDb([
    { name: 'ann', role: 'owner', password: PASSWORD.owner },
    { name: 'ed', role: 'editor', password: PASSWORD.editor },
    { name: 'vic', role: 'viewer', password: PASSWORD.viewer },
  ]);
  const dist = fakeDist();
  // As the README's deployment set-up: the public name allowed so deliveries reach the hub.
  app = await startAppServer(
    {
      upstream: { baseUrl: harness.url, apiKey: token },
      port: 0,
      allowedHosts: [PUBLIC],
      auth: { usersDb: db },
    } as Parameters<typeof startAppServer>[0],
    async () => distPages(dist),
  );
  host = `${PUBLIC}:${app.port}`;
});

afterAll(async () => {
  await app?.close();
  await harness?.close();
});

describe('the seller’s key behind sign-in', { timeout: SIGN_IN_HEAVY_MS }, () => {
  it('refuses a plain curl PUT and DELETE with the public Host: 401, the listing unchanged', async () => {
    const id = await freshListing();
    const put = await raw(app.url, `/api/2026-07/listings/${id}.json`, {
      method: 'PUT',
      headers: { host, 'content-type': 'application/json' },
      body: JSON.stringify({ listing: { price: '90.00' } }),
    });
    expect(put.status).toBe(401);
    expect(codeOf(put)).toBe('sign_in_required');
    expect(JSON.parse(put.body).errors).toBe('Sign in to continue.');
    const del = await raw(app.url, `/api/2026-07/listings/${id}.json`, {
      method: 'DELETE',
      headers: { host },
    });
    expect(del.status).toBe(401);
    const after = await listingNow(id);
    expect(after.price).toBe('100.00');
    expect(after.status).toBe('active');
  });

  it('needs a session for reads, event streams and pages; assets and the webhook door stay open', async () => {
    const get = await raw(app.url, '/api/2026-07/listings.json', { headers: { host } });
    expect(get.status).toBe(401);
    for (const path of ['/hub/events', '/hub/log']) {
      const answer = await raw(app.url, path, { headers: { host } });
      expect(answer.status, path).toBe(401);
    }
    const page = await raw(app.url, '/listings?view=mine', { headers: { host } });
    expect(page.status).toBe(303);
    expect(page.headers.location).toBe('/sign-in?next=%2Flistings%3Fview%3Dmine');
    const asset = await raw(app.url, '/assets/app.js', { headers: { host } });
    expect(asset.status).toBe(200);
    expect((await raw(app.url, '/favicon.svg', { headers: { host } })).status).toBe(200);
    // A path that looks like an asset reaches neither the proxy nor an open door: a path that
    // climbs out of its folder is not well formed.
    const dotted = await raw(app.url, '/assets/../api/2026-07/listings.json', {
      headers: { host },
    });
    expect(dotted.status).toBe(400);
    expect(dotted.body).not.toContain('products');
    // Another spelling of the proxy's path is the proxy's route, and needs its session.
    const encoded = await raw(app.url, '/%61pi/2026-07/listings.json', { headers: { host } });
    expect(encoded.status).toBe(401);
    const webhook = await raw(app.url, '/hub/webhooks', {
      method: 'POST',
      headers: { host, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(codeOf(webhook)).not.toBe('sign_in_required');
    const signInPage = await raw(app.url, '/sign-in', { headers: { host } });
    expect(signInPage.status).toBe(200);
    expect(signInPage.body).toContain('<form method="post" action="/sign-in">');
    expect(signInPage.body).toContain('autocomplete="current-password"');
    expect(signInPage.body).toContain('role="alert"');
  });

  it('signs in with one message for a wrong name or a wrong password', async () => {
    const wrongPassword = await browser().signIn('ann', 'not the password');
    const wrongName = await browser().signIn('nobody', 'not the password');
    for (const answer of [wrongPassword, wrongName]) {
      expect(answer.status).toBe(401);
      expect(answer.body).toContain('That name and password do not match.');
      expect(setCookies(answer).some((line) => line.startsWith('slabdesk_session='))).toBe(false);
    }
    const ann = browser();
    const ok = await ann.signIn('ann', PASSWORD.owner, '/listings');
    expect(ok.status).toBe(303);
    expect(ok.headers.location).toBe('/listings');
    const cookie = setCookies(ok).find((line) => line.startsWith('slabdesk_session='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/); // plain http here
    const page = await ann.request('/listings');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<meta name="slabdesk-user" content="ann" />');
    expect(page.body).toContain('<meta name="slabdesk-role" content="owner" />');
    expect(page.body).toMatch(/<meta name="slabdesk-csrf" content="[A-Za-z0-9_-]{40,}" \/>/);
    const session = await ann.request('/auth/session');
    expect(JSON.parse(session.body)).toEqual({
      user: { name: 'ann', role: 'owner' },
      signInRequired: true,
    });
    expect((await ann.request('/api/2026-07/listings.json?limit=1')).status).toBe(200);
  });

  it('gives a new session id at sign-in: a fixated or earlier cookie is not kept', async () => {
    const fixated = 'AttackerChosenSessionId000000000000000000000';
    const victim = browser();
    victim.cookies.set('slabdesk_session', fixated);
    expect((await victim.signIn('ann', PASSWORD.owner)).status).toBe(303);
    const first = victim.cookies.get('slabdesk_session')!;
    expect(first).not.toBe(fixated);
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 random bytes
    // Signing in again while carrying the first id (a form token borrowed from a fresh page):
    // a new id, and the first one opens nothing any more.
    const formPage = await browser().request('/sign-in');
    const formToken = /name="csrf" value="([^"]+)"/.exec(formPage.body)![1]!;
    victim.cookies.set('slabdesk_signin', formToken);
    const again = await victim.request('/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        csrf: formToken,
        name: 'ann',
        password: PASSWORD.owner,
      }).toString(),
    });
    expect(again.status).toBe(303);
    const second = victim.cookies.get('slabdesk_session')!;
    expect(second).not.toBe(first);
    const old = await raw(app.url, '/api/2026-07/listings.json?limit=1', {
      headers: { host, cookie: `slabdesk_session=${first}` },
    });
    expect(old.status).toBe(401);
    expect((await victim.request('/api/2026-07/listings.json?limit=1')).status).toBe(200);
  });

  it('sends a signed-in visitor to a same-origin path only after sign-in', async () => {
    const cases: [string, string][] = [
      ['//evil.example/x', '/'],
      ['/\\evil.example', '/'],
      ['https://evil.example/', '/'],
      ['/\t/evil.example', '/'],
      ['javascript:alert(1)', '/'],
      ['/orders?status=open#top', '/orders?status=open#top'],
    ];
    for (const [next, expected] of cases) {
      const answer = await browser().signIn('ann', PASSWORD.owner, next);
      expect(answer.status, next).toBe(303);
      expect(answer.headers.location, next).toBe(expected);
    }
  });

  it('signs out this session, and says so', async () => {
    const ann = browser();
    await ann.signIn('ann', PASSWORD.owner);
    const csrf = await ann.csrf();
    const refused = await ann.request('/auth/sign-out', { method: 'POST' });
    expect(refused.status).toBe(403);
    expect(codeOf(refused)).toBe('csrf_failed');
    const cookie = ann.cookies.get('slabdesk_session')!;
    const out = await ann.request('/auth/sign-out', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `csrf=${csrf}`,
    });
    expect(out.status).toBe(303);
    expect(out.headers.location).toBe('/sign-in?signed_out=1');
    expect(ann.cookies.has('slabdesk_session')).toBe(false);
    const page = await ann.request('/sign-in?signed_out=1');
    expect(page.body).toContain('You are signed out.');
    const after = await raw(app.url, '/api/2026-07/listings.json', {
      headers: { host, cookie: `slabdesk_session=${cookie}` },
    });
    expect(after.status).toBe(401);
  });

  it('signs out everywhere: every session of this account ends, another account’s lives', async () => {
    const [phone, laptop, editor] = [browser(), browser(), browser()];
    await phone.signIn('ann', PASSWORD.owner);
    await laptop.signIn('ann', PASSWORD.owner);
    await editor.signIn('ed', PASSWORD.editor);
    const out = await phone.request('/auth/sign-out-everywhere', {
      method: 'POST',
      headers: { 'x-slabdesk-csrf': await phone.csrf() },
    });
    expect(out.status).toBe(303);
    expect((await laptop.request('/api/2026-07/listings.json?limit=1')).status).toBe(401);
    expect((await phone.request('/api/2026-07/listings.json?limit=1')).status).toBe(401);
    expect((await editor.request('/api/2026-07/listings.json?limit=1')).status).toBe(200);
    const page = await laptop.request('/listings');
    expect(page.status).toBe(303);
    expect(page.headers.location).toBe('/sign-in?next=%2Flistings&ended=1');
  });

  it('keeps each role to its writes, whatever the client sends', async () => {
    const id = await freshListing();
    const viewer = browser();
    await viewer.signIn('vic', PASSWORD.viewer);
    for (const method of ['PUT', 'DELETE', 'POST']) {
      const path =
        method === 'POST' ? '/api/2026-07/listings.json' : `/api/2026-07/listings/${id}.json`;
      const answer = await viewer.write(method, path, { listing: { price: '90.00' } }, undefined, {
        'x-slabdesk-role': 'owner',
      });
      expect(answer.status, `${method} ${answer.body}`).toBe(403);
      expect(codeOf(answer)).toBe('role_forbidden');
      expect(JSON.parse(answer.body).errors).toBe('Your role (viewer) can only read.');
    }
    expect((await viewer.request(`/api/2026-07/listings/${id}.json`)).status).toBe(200);
    expect((await listingNow(id)).price).toBe('100.00');

    const editor = browser();
    await editor.signIn('ed', PASSWORD.editor);
    const edit = await editor.write('PUT', `/api/2026-07/listings/${id}.json`, {
      listing: { price: '120.00' },
    });
    expect(edit.status).toBe(200);
    const deactivate = await editor.write('DELETE', `/api/2026-07/products/${id}.json`, undefined);
    expect(deactivate.status).toBe(403);
    expect(codeOf(deactivate)).toBe('role_forbidden');
    expect((await listingNow(id)).status).toBe('active');

    const owner = browser();
    await owner.signIn('ann', PASSWORD.owner);
    const done = await owner.write('DELETE', `/api/2026-07/listings/${id}.json`, undefined);
    expect(done.status).toBe(200);
    expect((await listingNow(id)).status).toBe('archived');
  });

  it('refuses a write without the session’s token, with a wrong one, or from another origin', async () => {
    const id = await freshListing();
    const owner = browser();
    await owner.signIn('ann', PASSWORD.owner);
    const path = `/api/2026-07/listings/${id}.json`;
    const body = { listing: { price: '90.00' } };
    const missing = await owner.write('PUT', path, body, null);
    expect(missing.status).toBe(403);
    expect(codeOf(missing)).toBe('csrf_failed');
    const wrong = await owner.write('PUT', path, body, 'x'.repeat(43));
    expect(wrong.status).toBe(403);
    expect(codeOf(wrong)).toBe('csrf_failed');
    const csrf = await owner.csrf();
    const crossSite = await owner.write('PUT', path, body, csrf, {
      origin: 'https://evil.example',
      'sec-fetch-site': 'cross-site',
    });
    expect(crossSite.status).toBe(403);
    // Another session's token is not this one's.
    const other = browser();
    await other.signIn('ann', PASSWORD.owner);
    expect((await owner.write('PUT', path, body, await other.csrf())).status).toBe(403);
    expect((await listingNow(id)).price).toBe('100.00');
    // The sign-in form from another origin, or without its own token, signs nobody in.
    const foreign = await browser().request('/sign-in', {
      method: 'POST',
      headers: {
        origin: 'https://evil.example',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: `name=ann&password=${encodeURIComponent(PASSWORD.owner)}`,
    });
    expect(foreign.status).toBe(403);
    const tokenless = browser();
    const noToken = await tokenless.request('/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `name=ann&password=${encodeURIComponent(PASSWORD.owner)}`,
    });
    expect(noToken.status).toBe(403);
    expect(tokenless.cookies.has('slabdesk_session')).toBe(false);
    expect((await owner.write('PUT', path, body, csrf)).status).toBe(200);
  });
});
