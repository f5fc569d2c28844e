import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startAppServer,
  type DeclaredRoute,
  type RunningAppServer,
} from '../../src/server/app-server';
import { roleMay } from '../../src/server/auth/roles';
import type { Role } from '../../src/server/auth/roles';
import { distPages } from '../../src/server/dist-pages';
import { startHarness, type Harness } from '../support/sandbox-harness';
import { Browser, fakeDist, SIGN_IN_HEAVY_MS, usersDb } from './auth-http';

/**
 * The finding "`GET /%68ub/rules` answers the rules, floors and costs with no session": the gate
 * judged the path as sent while the router decoded it. Now each route states who may use it and
 * the gate decides on the route the router matched. This walks every registered route, with no
 * session and as each role, in the spellings a stranger would try.
 */
const PUBLIC = 'cards.example.com';
const ROLES: Role[] = ['viewer', 'editor', 'owner'];
const PASSWORD: Record<Role, string> = {
  owner: 'owner password 1',
  editor: 'editor password 1',
  viewer: 'viewer pw 123',
};
const REFUSALS = new Set(['sign_in_required', 'role_forbidden', 'route_closed', 'csrf_failed']);

let harness: Harness;
let app: RunningAppServer;
let host: string;
const signedIn = new Map<Role, { cookie: string; csrf: string }>();

interface Answer {
  status: number;
  /** The envelope's code; null for an answer without a body (HEAD, a stream). */
  code: string | null | undefined;
}

/** One request as a browser would send it; an event stream is left once its head arrived. */
function ask(
  method: string,
  path: string,
  who?: { cookie: string; csrf: string },
  withToken = true,
): Promise<Answer> {
  const write = method !== 'GET' && method !== 'HEAD';
  const body = write ? '{}' : undefined;
  const headers: Record<string, string> = { host };
  if (who) headers.cookie = who.cookie;
  if (write) {
    Object.assign(headers, {
      origin: `http://${host}`,
      'sec-fetch-site': 'same-origin',
      'content-type': 'application/json',
      'content-length': String(body!.length),
      ...(who && withToken ? { 'x-slabdesk-csrf': who.csrf } : {}),
    });
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: app.port, path, method, headers }, (res) => {
      if (String(res.headers['content-type']).startsWith('text/event-stream')) {
        res.destroy();
        return resolve({ status: res.statusCode ?? 0, code: null });
      }
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        let code: string | null | undefined = method === 'HEAD' ? null : undefined;
        try {
          code = JSON.parse(text).svc_error?.code;
        } catch {
          // Not the API's envelope: a page, a file, or nothing (HEAD).
        }
        resolve({ status: res.statusCode ?? 0, code });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The answer's code is `code` (a HEAD answer has no body to say it). */
const codeIs = (answer: Answer, code: string) => answer.code === code || answer.code === null;

/** A route's pattern as a path a caller would send. */
const samplePath = (url: string) =>
  url
    .replace(/:key/g, 'walk-show-1')
    .replace(/:listingId/g, 'L1')
    .replace(/:\w+/g, '1')
    .replace(/\*$/, '2026-07/shop.json');

/** The same path with one letter of one segment percent-encoded, for each segment that has one. */
function encodedSpellings(path: string): string[] {
  const segments = path.split('/');
  const spellings: string[] = [];
  segments.forEach((segment, index) => {
    const at = segment.search(/[a-z]/i);
    if (at === -1) return;
    const hex = segment.charCodeAt(at).toString(16);
    const spelled = `${segment.slice(0, at)}%${index % 2 ? hex : hex.toUpperCase()}${segment.slice(at + 1)}`;
    spellings.push([...segments.slice(0, index), spelled, ...segments.slice(index + 1)].join('/'));
  });
  return spellings;
}

/** Spellings that are not one path's canonical form: each answers 400, whoever asks. */
const malformedSpellings = (path: string) => [
  `/${path}`,
  path.replace(/^\/([^/]+)\//, '/$1//'),
  path.replace(/^\/([^/]+)\//, '/$1/./'),
  path.replace(/^\/([^/]+)\//, '/$1/%2e%2e/$1/'),
  `${path}%`,
];

/** Each route and method, HEAD with GET's access. */
const walkable = () =>
  app.routes.flatMap((route: DeclaredRoute) =>
    route.methods.map((method) => ({ method, url: route.url, access: route.access })),
  );

beforeAll(async () => {
  harness = await startHarness();
  const { token } = await harness.seller();
  const db = await usersDb(ROLES.map((role) => ({ name: role, role, password: PASSWORD[role] })));
  app = await startAppServer(
    {
      upstream: { baseUrl: harness.url, apiKey: token },
      port: 0,
      allowedHosts: [PUBLIC],
      auth: { usersDb: db },
      activity: { path: ':memory:' },
      hub: { secrets: ['whsec_route_walk'] },
    } as Parameters<typeof startAppServer>[0],
    async () => distPages(fakeDist()),
  );
  host = `${PUBLIC}:${app.port}`;
  for (const role of ROLES) {
    const browser = new Browser(app.url, host);
    await browser.signIn(role, PASSWORD[role]);
    signedIn.set(role, { cookie: browser.cookieHeader(), csrf: await browser.csrf() });
  }
});

afterAll(async () => {
  await app?.close();
  await harness?.close();
});

describe('every route says who may use it', { timeout: SIGN_IN_HEAVY_MS }, () => {
  it('states its access in its own definition', () => {
    const routes = walkable();
    // The proxy, the hub, the rules, the shows, sign-in and the build's files.
    expect(routes.length).toBeGreaterThan(40);
    expect(routes.filter((route) => route.access === undefined)).toEqual([]);
    expect(routes.find((route) => route.url === '/hub/rules' && route.method === 'GET')).toEqual({
      method: 'GET',
      url: '/hub/rules',
      access: 'viewer',
    });
  });

  it('answers no session, each role and every spelling of its path as its access says', async () => {
    const failures: string[] = [];
    for (const route of walkable()) {
      const path = samplePath(route.url);
      const callers: (Role | null)[] = route.access === 'public' ? [null] : [null, ...ROLES];
      for (const role of callers) {
        const who = role ? signedIn.get(role) : undefined;
        const allowed = role !== null && roleMay(role, route.access!);
        for (const spelled of [path, ...encodedSpellings(path)]) {
          const answer = await ask(route.method, spelled, who);
          const seen = `${route.method} ${spelled} as ${role ?? 'no one'}: ${answer.status} ${answer.code}`;
          if (answer.status >= 500) failures.push(seen);
          else if (route.access === 'public' || route.access === 'page' || allowed) {
            if (REFUSALS.has(answer.code ?? '')) failures.push(seen);
          } else if (role === null) {
            if (answer.status !== 401 || !codeIs(answer, 'sign_in_required')) failures.push(seen);
          } else if (answer.status !== 403 || !codeIs(answer, 'role_forbidden')) {
            failures.push(seen);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('refuses a write without the session’s token, on every spelling', async () => {
    const failures: string[] = [];
    const owner = signedIn.get('owner')!;
    for (const route of walkable()) {
      if (route.access === 'public' || ['GET', 'HEAD'].includes(route.method)) continue;
      const path = samplePath(route.url);
      for (const spelled of [path, ...encodedSpellings(path)]) {
        const answer = await ask(route.method, spelled, owner, false);
        if (answer.status !== 403 || answer.code !== 'csrf_failed') {
          failures.push(`${route.method} ${spelled}: ${answer.status} ${answer.code}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers a path that is not in its one form with 400, whoever asks', async () => {
    const failures: string[] = [];
    for (const route of walkable()) {
      if (route.url === '/*' || route.url === '/') continue;
      const path = samplePath(route.url);
      for (const role of [null, 'owner'] as const) {
        for (const spelled of malformedSpellings(path)) {
          if (spelled === path) continue;
          const answer = await ask(route.method, spelled, role ? signedIn.get(role) : undefined);
          if (answer.status !== 400) {
            failures.push(`${route.method} ${spelled}: ${answer.status} ${answer.code}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
