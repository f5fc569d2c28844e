import { afterEach, describe, expect, it } from 'vitest';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import { NoAccountError } from '../../src/server/auth/auth-gate';
import type { AuthOptions } from '../../src/server/auth/auth-gate';
import { AccountsStore } from '../../src/server/auth/accounts-store';
import { distPages } from '../../src/server/dist-pages';
import { raw } from '../support/raw-http';
import {
  Browser,
  codeOf,
  fakeDist,
  setCookies,
  SIGN_IN_HEAVY_MS,
  testClock,
  usersDb,
} from './auth-http';

/**
 * Sessions over time (idle and absolute expiry, on a clock the test moves), sign-in attempts
 * slowed per account and per address, the start-up refusal, and sign-in on a local server.
 * The upstream is unreachable on purpose: `/auth/session` and the pages answer without it, and
 * an API call that passes the gate answers 502.
 */
const MINUTE = 60_000;
const PASSWORD = 'a long password';
const dist = fakeDist();
const apps: RunningAppServer[] = [];

async function server(
  auth: AuthOptions,
  extra: { host?: string; allowedHosts?: readonly string[] } = {},
): Promise<RunningAppServer> {
  const app = await startAppServer(
    { upstream: { baseUrl: 'http://127.0.0.1:9', apiKey: 'svc_live_x' }, port: 0, auth, ...extra },
    async () => distPages(dist),
  );
  apps.push(app);
  return app;
}

afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

const signedIn = async (browser: Browser) =>
  (JSON.parse((await browser.request('/auth/session')).body) as { user: unknown }).user;

describe('session expiry', () => {
  it('ends a session unused for the idle time, and one older than the absolute limit', async () => {
    const clock = testClock();
    const db = await usersDb([{ name: 'ann', role: 'owner', password: PASSWORD }]);
    const app = await server({
      usersDb: db,
      requireSignIn: true,
      sessionIdleMinutes: 30,
      sessionMaxHours: 2,
      now: clock.now,
    });
    const host = `127.0.0.1:${app.port}`;

    const idle = new Browser(app.url, host);
    await idle.signIn('ann', PASSWORD);
    clock.advance(29 * MINUTE);
    expect(await signedIn(idle)).toEqual({ name: 'ann', role: 'owner' });
    clock.advance(29 * MINUTE); // 29 minutes after the last use: still alive
    expect(await signedIn(idle)).not.toBeNull();
    clock.advance(31 * MINUTE);
    expect(await signedIn(idle)).toBeNull();
    const api = await idle.request('/api/2026-07/listings.json');
    expect(api.status).toBe(401);
    expect(codeOf(api)).toBe('sign_in_required');

    const busy = new Browser(app.url, host);
    await busy.signIn('ann', PASSWORD);
    for (let minutes = 0; minutes < 115; minutes += 20) {
      clock.advance(20 * MINUTE);
      expect(await signedIn(busy), `${minutes + 20} min`).not.toBeNull();
    }
    clock.advance(10 * MINUTE); // 130 minutes after sign-in, used every 20
    expect(await signedIn(busy)).toBeNull();
    expect((await busy.request('/listings')).status).toBe(303);

    // Expired sessions are purged from the file, not only refused.
    const store = new AccountsStore(db);
    try {
      expect(store.countSessions('ann')).toBe(0);
    } finally {
      store.close();
    }
  });
});

describe('sign-in attempts slowed', { timeout: SIGN_IN_HEAVY_MS }, () => {
  async function limitedServer() {
    const clock = testClock();
    const db = await usersDb([
      { name: 'ann', role: 'owner', password: PASSWORD },
      { name: 'bob', role: 'editor', password: PASSWORD },
    ]);
    // Behind a trusted proxy: X-Forwarded-For names the client address.
    const app = await server({ usersDb: db, trustProxy: true, now: clock.now });
    const from = (address: string) =>
      new Browser(app.url, `127.0.0.1:${app.port}`, { 'x-forwarded-for': address });
    return { clock, from };
  }

  it('per account: after 5 failures each attempt answers 429 with a growing Retry-After', async () => {
    const { clock, from } = await limitedServer();
    for (let i = 0; i < 5; i++) {
      expect((await from(`203.0.113.${i + 1}`).signIn('ann', 'wrong password')).status).toBe(401);
    }
    // From yet another address, even with the right password: refused, told when to come back.
    const blocked = await from('203.0.113.50').signIn('ann', PASSWORD);
    expect(blocked.status).toBe(429);
    const first = Number(blocked.headers['retry-after']);
    expect(first).toBeGreaterThan(0);
    expect(blocked.body).toContain('Too many attempts');
    expect(setCookies(blocked).some((line) => line.startsWith('slabdesk_session='))).toBe(false);
    // Another account is not slowed by ann's failures.
    expect((await from('203.0.113.60').signIn('bob', PASSWORD)).status).toBe(303);

    clock.advance(first * 1000);
    expect((await from('203.0.113.51').signIn('ann', 'wrong again!')).status).toBe(401);
    const second = await from('203.0.113.52').signIn('ann', PASSWORD);
    expect(second.status).toBe(429);
    expect(Number(second.headers['retry-after'])).toBeGreaterThan(first);

    // Capped, and a success afterwards clears the account's count.
    for (let i = 0; i < 8; i++) {
      clock.advance(
        Number((await from('203.0.113.53').signIn('ann', PASSWORD)).headers['retry-after'] ?? 0) *
          1000,
      );
      await from(`198.51.100.${i}`).signIn('ann', 'still wrong!');
    }
    const capped = await from('203.0.113.54').signIn('ann', PASSWORD);
    expect(Number(capped.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    clock.advance(15 * MINUTE);
    expect((await from('203.0.113.55').signIn('ann', PASSWORD)).status).toBe(303);
    expect((await from('203.0.113.56').signIn('ann', 'wrong password')).status).toBe(401);
    expect((await from('203.0.113.57').signIn('ann', PASSWORD)).status).toBe(303);
  });

  it('per address: one address spraying names is slowed too, others are not', async () => {
    const { from } = await limitedServer();
    for (let i = 0; i < 5; i++) {
      expect((await from('192.0.2.7').signIn(`guess${i}`, 'wrong password')).status).toBe(401);
    }
    const blocked = await from('192.0.2.7').signIn('bob', PASSWORD);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // The address is the first untrusted hop: a client-written entry on the left changes nothing.
    expect((await from('10.9.9.9, 192.0.2.7').signIn('bob', PASSWORD)).status).toBe(429);
    expect((await from('192.0.2.8').signIn('bob', PASSWORD)).status).toBe(303);
  });
});

describe('start-up and exposure', () => {
  it('refuses to start exposed without an account, and says how to add one', async () => {
    const empty = await usersDb([]);
    for (const extra of [{ allowedHosts: ['cards.example.com'] }, { host: '0.0.0.0' }] as const) {
      const start = server({ usersDb: empty }, extra);
      await expect(start).rejects.toBeInstanceOf(NoAccountError);
      await expect(start).rejects.toThrow('npm run users -- add NAME --role owner');
    }
    for (const auth of [
      { publicUrl: 'https://cards.example.com' },
      { trustProxy: true },
      { webhookPort: 8788 },
      { requireSignIn: true },
    ]) {
      await expect(server({ usersDb: empty, ...auth })).rejects.toThrow(/npm run users -- add/);
    }
  });

  it('on loopback with no account: the demo dashboard, no sign-in, no boot facts of a person', async () => {
    const app = await server({ usersDb: await usersDb([]) });
    const page = await raw(app.url, '/listings');
    expect(page.status).toBe(200);
    expect(page.body).toContain('slabdesk-mode');
    expect(page.body).not.toContain('slabdesk-user');
    const session = JSON.parse((await raw(app.url, '/auth/session')).body);
    expect(session).toEqual({ user: null, signInRequired: false });
    // The API passes the gate (the upstream here is unreachable: 502, not 401).
    expect((await raw(app.url, '/api/2026-07/listings.json')).status).toBe(502);
  });

  it('on loopback with accounts: sign-in optional, a signed-in person named; forwarded requests need it', async () => {
    const app = await server({
      usersDb: await usersDb([{ name: 'vic', role: 'viewer', password: PASSWORD }]),
    });
    const host = `127.0.0.1:${app.port}`;
    expect((await raw(app.url, '/listings')).status).toBe(200);
    const vic = new Browser(app.url, host);
    expect((await vic.signIn('vic', PASSWORD)).status).toBe(303);
    const page = await vic.request('/listings');
    expect(page.body).toContain('<meta name="slabdesk-role" content="viewer" />');
    // Signed in, the role holds here too.
    const write = await vic.write('PUT', '/api/2026-07/listings/x.json', { listing: {} });
    expect(codeOf(write)).toBe('role_forbidden');
    // A tunnel to a loopback server brings the outside in: forwarded requests need a session.
    for (const header of ['x-forwarded-for', 'forwarded', 'x-real-ip', 'cf-connecting-ip']) {
      const api = await raw(app.url, '/api/2026-07/listings.json', {
        headers: { [header]: header === 'forwarded' ? 'for=198.51.100.1' : '198.51.100.1' },
      });
      expect(api.status, header).toBe(401);
      const outside = await raw(app.url, '/listings', { headers: { [header]: '198.51.100.1' } });
      expect(outside.status, header).toBe(303);
    }
  });

  it('behind TLS: a Secure cookie under a __Host- name', async () => {
    const db = await usersDb([{ name: 'ann', role: 'owner', password: PASSWORD }]);
    const app = await server({ usersDb: db, publicUrl: 'https://cards.example.com' });
    const ann = new Browser(app.url, `127.0.0.1:${app.port}`);
    const page = await ann.request('/sign-in');
    expect(setCookies(page)[0]).toMatch(/^__Host-slabdesk_signin=.*Secure/);
    const answer = await ann.signIn('ann', PASSWORD);
    expect(answer.status).toBe(303);
    const cookie = setCookies(answer).find((line) => line.startsWith('__Host-slabdesk_session='));
    // Each attribute once, in whatever order the serialiser writes them.
    const attributes = cookie?.split('; ').slice(1).sort();
    expect(attributes).toEqual([
      'HttpOnly',
      'Max-Age=604800',
      'Path=/',
      'SameSite=Strict',
      'Secure',
    ]);
    expect(await signedIn(ann)).toEqual({ name: 'ann', role: 'owner' });
  });
});
