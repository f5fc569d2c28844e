import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readScan } from '../../src/lib/cert-scan';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import { distPages } from '../../src/server/dist-pages';
import { isCanonicalPath } from '../../src/server/request-guard';
import { raw } from '../support/raw-http';
import { startHarness, type Harness } from '../support/sandbox-harness';
import { fakeDist, usersDb } from './auth-http';

/**
 * The findings "a hostile QR label throws `URIError` in scanning and the pack check", "`GET //`
 * answers an unauthenticated 500" and "`GET /` answers 403 to a client that sends no
 * `Accept-Encoding`": every decode is the safe one, a path not in its one form answers 400, and
 * the page answers every well-formed client.
 */
describe('the scan parser', () => {
  it('reads a label whose URL does not decode as something read, not a throw', () => {
    expect(readScan('https://psacard.com/cert/%E0%A4%A/')).toEqual({
      kind: 'other',
      text: 'https://psacard.com/cert/%E0%A4%A/',
    });
    expect(readScan('https://psacard.com/cert/%E0%A4%A/12345678')).toMatchObject({
      kind: 'cert',
      cert: '12345678',
      grader: 'PSA',
    });
  });

  it('never throws on any string or URL, and a cert it finds is 7 to 10 digits', () => {
    const segment = fc.oneof(
      fc.string(),
      fc.constantFrom('cert', 'certlookup', 'verify', '%', '%E0%A4%A', '%ZZ', '12345678', '..'),
      fc.stringMatching(/^[0-9 -]{0,14}$/),
    );
    const label = fc.oneof(
      fc.string({ maxLength: 3000 }),
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      fc
        .tuple(
          fc.constantFrom('https://', 'http://', '', 'HTTPS://', 'ftp://'),
          fc.constantFrom('psacard.com', 'www.cgccards.com', 'beckett.com', 'example.org'),
          fc.array(segment, { maxLength: 6 }),
          fc.string(),
        )
        .map(([scheme, host, parts, query]) => `${scheme}${host}/${parts.join('/')}?${query}`),
    );
    fc.assert(
      fc.property(label, (text) => {
        const reading = readScan(text);
        if (reading.kind === 'cert') expect(reading.cert).toMatch(/^\d{7,10}$/);
        expect(reading.text.length).toBeLessThanOrEqual(2048);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('a path in its one form', () => {
  it('knows the canonical form, and never throws on any string', () => {
    expect(isCanonicalPath('/')).toBe(true);
    expect(isCanonicalPath('/hub/rules')).toBe(true);
    expect(isCanonicalPath('/listings/')).toBe(true);
    for (const path of ['//', '//hub/rules', '/hub/./rules', '/a/%2E%2e/b', '/x%', '/\\x', 'x']) {
      expect(isCanonicalPath(path), path).toBe(false);
    }
    fc.assert(fc.property(fc.string(), (path) => typeof isCanonicalPath(path) === 'boolean'));
  });
});

let harness: Harness;
const servers: RunningAppServer[] = [];

beforeAll(async () => {
  harness = await startHarness();
});

afterAll(async () => {
  for (const server of servers) await server.close();
  await harness?.close();
});

async function builtServer(auth: Parameters<typeof startAppServer>[0]['auth']) {
  const { token } = await harness.seller();
  const app = await startAppServer(
    { upstream: { baseUrl: harness.url, apiKey: token }, port: 0, ...(auth ? { auth } : {}) },
    async () => distPages(fakeDist()),
  );
  servers.push(app);
  return app;
}

describe('the built server on hostile and plain clients', () => {
  it('answers GET / with the page with or without Accept-Encoding, and a sign-in redirect where it is needed', async () => {
    const open = await builtServer(undefined);
    for (const encoding of [undefined, 'gzip', 'br', 'identity', 'gzip, deflate, br']) {
      const headers: Record<string, string> = encoding ? { 'accept-encoding': encoding } : {};
      const page = await raw(open.url, '/', { headers });
      expect(page.status, encoding).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
    }
    const closed = await builtServer({
      requireSignIn: true,
      usersDb: await usersDb([{ name: 'ann', role: 'owner', password: 'owner password 1' }]),
    });
    const redirected = await raw(closed.url, '/');
    expect(redirected.status).toBe(303);
    expect(redirected.headers.location).toBe('/sign-in');
  });

  it('answers a path that is not well formed with 400 in the API envelope, never a 500', async () => {
    const closed = await builtServer({
      requireSignIn: true,
      usersDb: await usersDb([{ name: 'ann', role: 'owner', password: 'owner password 1' }]),
    });
    for (const path of ['//', '//hub/rules', '/%E0%A4%A', '/hub/%2e%2e/hub/rules', '/api/x%']) {
      const answer = await raw(closed.url, path);
      expect(answer.status, path).toBe(400);
      expect(JSON.parse(answer.body)).toMatchObject({ svc_error: { code: 'malformed_request' } });
    }
  });
});
