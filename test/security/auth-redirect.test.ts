import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import { distPages } from '../../src/server/dist-pages';
import { Browser, fakeDist, SIGN_IN_HEAVY_MS, usersDb } from './auth-http';

/**
 * The finding "open redirect": `/sign-in?next=/.//evil.example` (and `/%2e%2e//evil.example`)
 * answered `Location: //evil.example`, and a signed-in seller was sent on at once. `next` is now
 * checked after normalising: wherever it points, the browser lands on a path of this server.
 */
const PASSWORD = 'a long password';
const HOSTILE = [
  '/.//evil.example',
  '/%2e%2e//evil.example',
  '/%2E%2E//evil.example',
  '/..//evil.example',
  '/./..//evil.example/x',
  '//evil.example',
  '///evil.example',
  '/\\evil.example',
  '/%5Cevil.example',
  '/%5cevil.example',
  '/%2F%2Fevil.example',
  '/%2f/evil.example',
  'https://evil.example',
  'http:evil.example',
  '/\t/evil.example',
  '/\n/evil.example',
  '/\r\n//evil.example',
  '/.%2F/evil.example',
  '\\\\evil.example',
  'javascript:alert(1)',
];

let app: RunningAppServer;
let host: string;

beforeAll(async () => {
  const db = await usersDb([{ name: 'ann', role: 'owner', password: PASSWORD }]);
  const dist = fakeDist();
  app = await startAppServer(
    {
      upstream: { baseUrl: 'http://127.0.0.1:9', apiKey: 'svc_live_x' },
      port: 0,
      auth: { usersDb: db, requireSignIn: true },
    },
    async () => distPages(dist),
  );
  host = `127.0.0.1:${app.port}`;
});

afterAll(async () => {
  await app?.close();
});

/** Where a browser on this server ends up after following `location`. */
function landing(location: string | string[] | undefined): URL {
  expect(typeof location).toBe('string');
  const origin = `http://${host}`;
  // A browser strips tabs and newlines and reads a backslash as a slash before resolving.
  const cleaned = String(location)
    .replace(/[\t\n\r]/g, '')
    .replace(/\\/g, '/');
  const url = new URL(cleaned, origin);
  expect(url.origin, String(location)).toBe(origin);
  expect(String(location).startsWith('/'), String(location)).toBe(true);
  expect(String(location).startsWith('//'), String(location)).toBe(false);
  return url;
}

describe('the path after sign-in', () => {
  it(
    'sends a signed-in seller only to a same-origin path, however `next` is written',
    { timeout: SIGN_IN_HEAVY_MS },
    async () => {
      const ann = new Browser(app.url, host);
      expect((await ann.signIn('ann', PASSWORD)).status).toBe(303);
      for (const next of HOSTILE) {
        const answer = await ann.request(`/sign-in?next=${encodeURIComponent(next)}`);
        expect(answer.status, next).toBe(303);
        expect(answer.headers.location, next).not.toMatch(/evil/);
        landing(answer.headers.location);
      }
      // As written in the address bar (not encoded once more), the two reported forms.
      for (const raw of ['/sign-in?next=/.//evil.example', '/sign-in?next=/%2e%2e//evil.example']) {
        const answer = await ann.request(raw);
        expect(answer.status, raw).toBe(303);
        expect(answer.headers.location, raw).toBe('/');
      }
      const kept = await ann.request(`/sign-in?next=${encodeURIComponent('/orders?status=open')}`);
      expect(kept.headers.location).toBe('/orders?status=open');
    },
  );

  it(
    'sends a seller signing in only to a same-origin path',
    { timeout: SIGN_IN_HEAVY_MS },
    async () => {
      for (const next of ['/.//evil.example', '/%2e%2e//evil.example', '/\\evil.example']) {
        const answer = await new Browser(app.url, host).signIn('ann', PASSWORD, next);
        expect(answer.status, next).toBe(303);
        expect(answer.headers.location, next).toBe('/');
      }
    },
  );
});
