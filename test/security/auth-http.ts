import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { writeUsersDb } from '../support/users-db';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Role } from '../../src/server/auth/roles';
import { signInGate, type AuthGate } from '../../src/server/auth/auth-gate';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { signInRoutes } from '../../src/server/routes/sign-in';
import { raw, type RawAnswer, type RawOptions } from '../support/raw-http';
import { afterAll, beforeAll } from 'vitest';
import { startHarness, type Harness } from '../support/sandbox-harness';
import { createListing, registerCert, type Json } from '../sandbox/writes-helpers';
import {
  startAppServer,
  type AppServerOptions,
  type RunningAppServer,
} from '../../src/server/app-server';
import type { AuthOptions } from '../../src/server/auth/auth-gate';
import { distPages } from '../../src/server/dist-pages';

/** Helpers of the sign-in suites, over raw HTTP (the test sets Host, Origin, Cookie exactly). */

export const setCookies = (answer: RawAnswer): string[] => {
  const value = answer.headers['set-cookie'];
  return Array.isArray(value) ? value : value ? [value] : [];
};

/**
 * One browser: a `Host` (the public name the server answers to), its own Origin on writes, and
 * a cookie jar fed by `Set-Cookie`.
 */
export class Browser {
  readonly cookies = new Map<string, string>();
  constructor(
    readonly url: string,
    readonly host: string,
    readonly extraHeaders: Record<string, string> = {},
  ) {}

  get origin(): string {
    return `http://${this.host}`;
  }

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async request(path: string, options: RawOptions = {}): Promise<RawAnswer> {
    const method = options.method ?? 'GET';
    const headers: Record<string, string> = { host: this.host, ...this.extraHeaders };
    if (this.cookies.size > 0) headers.cookie = this.cookieHeader();
    if (method !== 'GET' && method !== 'HEAD') {
      headers.origin = this.origin;
      headers['sec-fetch-site'] = 'same-origin';
    }
    const answer = await raw(this.url, path, {
      ...options,
      headers: { ...headers, ...options.headers },
    });
    for (const line of setCookies(answer)) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at);
      const value = pair!.slice(at + 1);
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return answer;
  }

  /** Opens the sign-in page (for its form token), then posts the form. */
  async signIn(name: string, password: string, next?: string): Promise<RawAnswer> {
    const page = await this.request(`/sign-in${next ? `?next=${encodeURIComponent(next)}` : ''}`);
    const token = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    const form = new URLSearchParams({ csrf: token, name, password, next: next ?? '/' });
    return this.request('/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
  }

  /** The session's CSRF token, as the page is given it. */
  async csrf(): Promise<string> {
    const page = await this.request('/listings');
    const token = /<meta name="slabdesk-csrf" content="([^"]+)"/.exec(page.body)?.[1];
    if (!token) throw new Error(`no CSRF token in the page (${page.status})`);
    return token;
  }

  /** A JSON write through the proxy, with the session's token unless `token` says otherwise. */
  async write(
    method: string,
    path: string,
    body: unknown,
    token?: string | null,
    headers: Record<string, string> = {},
  ): Promise<RawAnswer> {
    const csrf = token === undefined ? await this.csrf() : token;
    const text = body === undefined ? undefined : JSON.stringify(body);
    return this.request(path, {
      method,
      headers: {
        'content-type': 'application/json',
        // With its length, as a browser sends it (node's client sends a DELETE body unframed).
        ...(text === undefined ? {} : { 'content-length': String(Buffer.byteLength(text)) }),
        ...(csrf === null ? {} : { 'x-slabdesk-csrf': csrf }),
        ...headers,
      },
      body: text,
      whole: true,
    } as RawOptions);
  }
}

export const codeOf = (answer: RawAnswer): string | undefined => {
  try {
    return (JSON.parse(answer.body) as { svc_error?: { code?: string } }).svc_error?.code;
  } catch {
    return undefined;
  }
};

/** A users file in a fresh folder, with the given accounts (as `npm run users -- add` makes them). */
export async function usersDb(
  accounts: { name: string; role: Role; password: string }[],
): Promise<string> {
  return writeUsersDb(join(mkdtempSync(join(tmpdir(), 'slabdesk-users-')), 'users.db'), accounts);
}

/** A built page (with a `<head>`) and one asset, as `npm run build` leaves them. */
export function fakeDist(): string {
  const dist = mkdtempSync(join(tmpdir(), 'slabdesk-auth-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(
    join(dist, 'index.html'),
    '<!doctype html><html><head><title>Slabdesk</title></head><body><div id="root"></div></body></html>',
  );
  writeFileSync(join(dist, 'assets', 'app.js'), 'console.log("app");');
  writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dist;
}

/** A clock the test moves. */
export function testClock(start = Date.parse('2026-07-01T09:00:00Z')) {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}

/**
 * Each sign-in hashes at OWASP's scrypt cost, seconds apiece when the machine is shared: suites
 * that sign in many times are given this long.
 */
export const SIGN_IN_HEAVY_MS = 180_000;

/** A listing as the sandbox holds it now, read with the seller's own token. */
export async function listingOf(harness: Harness, token: string, id: string): Promise<Json> {
  const answer = await harness.api(`/listings/${id}.json`, { token });
  return ((await answer.json()) as Json).listing;
}

/** A new active listing at $100.00 on a freshly registered PSA cert; its id. */
export async function listingAt100(harness: Harness, token: string): Promise<string> {
  const created = await createListing(harness, token, {
    sku: await registerCert(harness, 'PSA'),
    price: '100.00',
  });
  if (created.status !== 201) throw new Error(`listing not created: ${created.status}`);
  return created.body.listing.id as string;
}

/**
 * The gate and sign-in's routes on a Fastify app of their own, for tests of the gate alone;
 * `routes` adds what the gate guards (a path no route takes is a page, served by `page`).
 */
export async function gateServer(
  gate: AuthGate,
  routes: (app: FastifyInstance) => Promise<void> | void = () => {},
): Promise<{ url: string; port: number; close: () => Promise<void> }> {
  const app = Fastify({ forceCloseConnections: true });
  app.setValidatorCompiler(validatorCompiler);
  await signInGate(app, gate);
  await app.register(signInRoutes, { gate });
  await routes(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, port, close: () => app.close() };
}

/**
 * The dashboard's server with sign-in required, serving a built page (its CSRF token is in it),
 * and each named account signed in in a browser of its own, keyed by its role.
 */
export async function signedInServer<R extends Role>(
  options: Omit<AppServerOptions, 'auth'> & { auth?: AuthOptions },
  names: Record<R, string>,
  password: string,
): Promise<{ server: RunningAppServer; people: Record<R, Browser> }> {
  const roles = Object.keys(names) as R[];
  const dist = fakeDist();
  const server = await startAppServer(
    {
      ...options,
      auth: {
        ...options.auth,
        usersDb: await usersDb(roles.map((role) => ({ name: names[role], role, password }))),
        requireSignIn: true,
      },
    },
    async () => distPages(dist),
  );
  const host = new URL(server.url).host;
  const people = {} as Record<R, Browser>;
  for (const role of roles) {
    people[role] = new Browser(server.url, host);
    const answer = await people[role].signIn(names[role], password);
    if (answer.status !== 303)
      throw new Error(`${names[role]} could not sign in: ${answer.status}`);
  }
  return { server, people };
}

/** The hub (no sign-in) over a fresh sandbox for one file's tests: `app` once they start. */
export function hubForFile(): { app: RunningAppServer } {
  const hub = {} as { app: RunningAppServer; harness: Harness };
  beforeAll(async () => {
    hub.harness = await startHarness();
    const { token } = await hub.harness.seller();
    hub.app = await startAppServer(
      {
        upstream: { baseUrl: hub.harness.url, apiKey: token },
        port: 0,
        activity: { path: ':memory:' },
      },
      async () => distPages(fakeDist()),
    );
  });
  afterAll(async () => {
    await hub.app?.close();
    await hub.harness?.close();
  });
  return hub;
}

/** The dashboard's own page calling its hub, `value` sent as JSON; the answer whole, read as JSON. */
export async function ownCall(
  app: RunningAppServer,
  method: string,
  path: string,
  value?: unknown,
) {
  const body = value === undefined ? undefined : JSON.stringify(value);
  const json: Record<string, string> =
    body === undefined
      ? {}
      : {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
        };
  const answer = await raw(app.url, path, {
    method,
    headers: { origin: app.url, 'sec-fetch-site': 'same-origin', ...json },
    body,
    whole: true,
  });
  return { status: answer.status, json: JSON.parse(answer.body) as Record<string, unknown> };
}
