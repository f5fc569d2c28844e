import { afterEach, describe, expect, it } from 'vitest';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import type { AuthOptions } from '../../src/server/auth/auth-gate';
import { distPages } from '../../src/server/dist-pages';
import { raw } from '../support/raw-http';
import { Browser, fakeDist, SIGN_IN_HEAVY_MS, testClock, usersDb } from './auth-http';

/**
 * The findings "lock-out" (5 wrong passwords from 5 addresses, then the right one from a sixth:
 * 429 for up to 15 minutes, so ~100 requests a day keep the owner out) and "300 wrong sign-ins
 * from rotating addresses each cost a full scrypt; a real sign-in takes 7.3 s". Now a browser
 * that signed in before carries a device cookie: it is slowed only by its own failures, and its
 * password check goes ahead of the crowd's, which runs a few at a time.
 */
const PASSWORD = 'a long password';
const DEVICE = 'slabdesk_device';
const dist = fakeDist();
const apps: RunningAppServer[] = [];

afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

async function server(auth: Omit<AuthOptions, 'usersDb'> = {}) {
  const db = await usersDb([{ name: 'ann', role: 'owner', password: PASSWORD }]);
  // Behind a trusted proxy: X-Forwarded-For names the client address.
  const app = await startAppServer(
    {
      upstream: { baseUrl: 'http://127.0.0.1:9', apiKey: 'svc_live_x' },
      port: 0,
      auth: { usersDb: db, trustProxy: true, ...auth },
    },
    async () => distPages(dist),
  );
  apps.push(app);
  const host = `127.0.0.1:${app.port}`;
  /** A browser at this address, with the device cookie given (a known device) or none. */
  const from = (address: string, device?: string) => {
    const browser = new Browser(app.url, host, { 'x-forwarded-for': address });
    if (device) browser.cookies.set(DEVICE, device);
    return browser;
  };
  return { app, host, from };
}

/** The owner signs in once at home: her browser becomes a known device. */
async function knownDevice(from: (address: string) => Browser): Promise<string> {
  const home = from('198.51.100.7');
  expect((await home.signIn('ann', PASSWORD)).status).toBe(303);
  return home.cookies.get(DEVICE) ?? '';
}

describe('sign-in slowing', () => {
  it(
    'keeps the owner at a known device able to sign in while a guesser is slowed',
    { timeout: SIGN_IN_HEAVY_MS },
    async () => {
      const clock = testClock();
      const { from } = await server({ now: clock.now });
      const device = await knownDevice(from);
      expect(device).toMatch(/^[0-9a-f]{32}_[0-9a-f]{64}$/);

      for (let i = 1; i <= 6; i++) {
        const guess = await from(`203.0.113.${i}`).signIn('ann', `wrong password ${i}`);
        expect(guess.status, `guess ${i}`).toBe(i <= 5 ? 401 : 429);
      }
      // The guesser, at a new address with no device cookie, is slowed even with the right password.
      const stranger = await from('203.0.113.50').signIn('ann', PASSWORD);
      expect(stranger.status).toBe(429);
      expect(Number(stranger.headers['retry-after'])).toBeGreaterThan(0);

      // The owner's phone, known from before, at an address never seen: signed in.
      const phone = from('192.0.2.44', device);
      const answer = await phone.signIn('ann', PASSWORD);
      expect(answer.status).toBe(303);
      expect(phone.cookies.has('slabdesk_session')).toBe(true);
      // Her home address, where she signed in before, in a browser without the cookie: signed in.
      expect((await from('198.51.100.7').signIn('ann', PASSWORD)).status).toBe(303);

      // A device cookie is for its account only, and a forged one counts for nothing.
      const forged = `${'0'.repeat(32)}_${'0'.repeat(64)}`;
      expect((await from('203.0.113.51', forged).signIn('ann', PASSWORD)).status).toBe(429);

      // A stolen device cookie is slowed by its own failures.
      for (let i = 1; i <= 5; i++) {
        expect(
          (await from(`203.0.113.${60 + i}`, device).signIn('ann', 'wrong!!!!!!')).status,
        ).toBe(401);
      }
      expect((await from('203.0.113.70', device).signIn('ann', PASSWORD)).status).toBe(429);
      // While the other browsers of the owner are not.
      expect((await from('198.51.100.7').signIn('ann', PASSWORD)).status).toBe(303);
    },
  );

  it(
    'sets the device cookie HttpOnly, SameSite=Lax, long-lived, and Secure over TLS',
    { timeout: SIGN_IN_HEAVY_MS },
    async () => {
      const { from } = await server({ publicUrl: 'https://cards.example.com' });
      const browser = from('198.51.100.8');
      const answer = await browser.signIn('ann', PASSWORD);
      expect(answer.status).toBe(303);
      const raw = ([] as string[]).concat(answer.headers['set-cookie'] ?? []);
      const line = raw.find((cookie) => cookie.startsWith('__Host-slabdesk_device='));
      expect(line).toBeDefined();
      expect(line).toMatch(/; HttpOnly/);
      expect(line).toMatch(/; SameSite=Lax/);
      expect(line).toMatch(/; Secure/);
      expect(Number(/Max-Age=(\d+)/.exec(line!)?.[1])).toBeGreaterThan(30 * 24 * 3600);
    },
  );
});

describe('password checks under a flood', () => {
  it(
    'lets a known device sign in quickly while wrong sign-ins pour in from rotating addresses',
    { timeout: SIGN_IN_HEAVY_MS },
    async () => {
      const { app, host, from } = await server();
      const device = await knownDevice(from);
      // The same sign-in with no flood: the machine's own pace (it is shared, and busy at times).
      let started = performance.now();
      expect((await from('192.0.2.45', device).signIn('ann', PASSWORD)).status).toBe(303);
      const quiet = performance.now() - started;

      // One form token serves the whole flood (the double-submit cookie and its field).
      const page = await raw(app.url, '/sign-in', { headers: { host } });
      const token = /name="csrf" value="([^"]+)"/.exec(page.body)![1]!;
      const cookie = String(page.headers['set-cookie']).split(';')[0]!;
      const flood = Array.from({ length: 300 }, (_, i) =>
        raw(app.url, '/sign-in', {
          method: 'POST',
          headers: {
            host,
            origin: `http://${host}`,
            cookie,
            'content-type': 'application/x-www-form-urlencoded',
            'x-forwarded-for': `100.64.${i}.9`,
          },
          body: new URLSearchParams({
            csrf: token,
            name: `guess${i}`,
            password: `guess ${i}`,
          }).toString(),
        }),
      );
      // The owner comes once the flood has reached the server (its first answer is back).
      await Promise.race(flood);

      started = performance.now();
      const owner = await from('192.0.2.45', device).signIn('ann', PASSWORD);
      const took = performance.now() - started;
      const answers = await Promise.all(flood);
      console.log(
        `known-device sign-in: ${Math.round(quiet)} ms quiet, ${Math.round(took)} ms under a flood of ${flood.length}`,
      );
      expect(owner.status).toBe(303);
      // Beside at most one stranger's check: a few times its quiet pace, not the flood's length.
      expect(took).toBeLessThan(Math.max(3000, 3 * quiet + 1000));
      // The crowd past the line was turned away at once, told when to come back.
      const busy = answers.filter((answer) => answer.status === 503);
      expect(busy.length).toBeGreaterThan(0);
      expect(busy.every((answer) => Number(answer.headers['retry-after']) > 0)).toBe(true);
      expect(answers.every((answer) => [401, 503].includes(answer.status))).toBe(true);
    },
  );
});
