import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningAppServer } from '../../src/server/app-server';
import { raw } from '../support/raw-http';
import { startAppOver, startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';

/**
 * An upstream that answers a read as a page (`text/html` with a script): the proxy passed its
 * type on, so the dashboard's own origin served the upstream's script to a seller who opened the
 * URL (a typed or bookmarked `/api/…` is let through), with every right of the dashboard's page
 * over the hub's routes. Every answer of the proxy is now data to a browser: no script, no
 * frame, no form runs under it (`default-src 'none'; sandbox`).
 */
let upstream: FakeUpstream;
let app: RunningAppServer;

beforeAll(async () => {
  upstream = await startFakeUpstream((_req, res) => {
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<script>fetch("/hub/costs").then((r) => r.text()).then(alert)</script>');
  });
  app = await startAppOver(upstream.url, 'svc_live_ActiveContentKey000000001');
});

afterAll(async () => {
  await app?.close();
  await upstream?.close();
});

describe('an upstream answering a page of its own', () => {
  it('is served under a policy that runs none of it, opened as a seller opens a URL', async () => {
    const answer = await raw(app.url, '/api/2026-07/listings.json', {
      headers: { 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate' },
    });
    expect(answer.status).toBe(200);
    const policy = String(answer.headers['content-security-policy']);
    expect(policy).toContain("default-src 'none'");
    expect(policy.split(';').map((part) => part.trim())).toContain('sandbox');
  });
});
