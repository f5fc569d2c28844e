import { get } from 'node:http';
import { constants, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DEMO_LIVE_TOKEN } from '../../src/sandbox';
import { WALK_CONTENT_TYPE } from '../../src/client/walk-frames';
import { startAppOverLog, type AppOverLog } from '../support/app-over-log';
import { appFaultingListingsCall, servedSandbox } from '../support/served-sandbox';
import { pagesOfWalkAnswer } from '../support/walk-answer';

/**
 * A walk in one answer (`GET /hub/walk`): against the real sandbox, behind a logging proxy that
 * records every call that actually went upstream.
 */

const sandbox = servedSandbox();

const sameOrigin = (app: AppOverLog['app']) => ({
  'sec-fetch-site': 'same-origin',
  origin: app.url,
});

const walkUrl = (app: AppOverLog['app'], first: string) =>
  `${app.url}/hub/walk?url=${encodeURIComponent(first)}`;

const nextOf = (link: string | null | undefined) => /<([^>]*)>;\s*rel="next"/.exec(link ?? '')?.[1];

/** The listing ids of a walk made directly against the sandbox, page by page. */
async function directIds(first: string): Promise<string[][]> {
  const pages: string[][] = [];
  let url: string | undefined = first;
  while (url !== undefined) {
    const response = await sandbox.harness.api(url, { token: DEMO_LIVE_TOKEN });
    const body = (await response.json()) as { listings: { id: string }[] };
    pages.push(body.listings.map((row) => row.id));
    const next = nextOf(response.headers.get('link'));
    url = next === undefined ? undefined : next.slice(next.indexOf('/listings.json'));
  }
  return pages;
}

describe('a walk in one answer', () => {
  it('brings every page, each from one upstream call, as the proxy would answer it', async () => {
    const { app, upstreamLog } = sandbox.served;
    const before = upstreamLog.log.length;
    const response = await fetch(
      walkUrl(app, '/api/2026-07/listings.json?limit=50&fields=id,status'),
      { headers: sameOrigin(app) },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(WALK_CONTENT_TYPE);
    const bytes = Buffer.from(await response.arrayBuffer());
    const pages = pagesOfWalkAnswer(bytes);

    const direct = await directIds('/listings.json?limit=50&fields=id,status');
    expect(direct.length).toBeGreaterThan(3);
    expect(
      pages.map((page) => (JSON.parse(page.text) as { listings: { id: string }[] }).listings),
    ).toEqual(direct.map((ids) => ids.map((id) => expect.objectContaining({ id }))));
    // One upstream call per page, no more: the calls a page-by-page walk makes.
    const calls = upstreamLog.log.slice(before);
    expect(calls).toHaveLength(pages.length);
    expect(calls.every((call) => call.url.startsWith('/2026-07/listings.json?'))).toBe(true);
    pages.forEach((page, i) => {
      expect(page.head.status).toBe(200);
      expect(page.head.chars).toBe(page.text.length);
      expect(page.head.headers['x-request-id']).toMatch(/^req_/);
      expect(page.head.headers['x-service-api-call-limit']).toMatch(/^\d+\/\d+$/);
      // Each page's URL is the one the page before linked to, on this server.
      if (i > 0) expect(page.head.url).toBe(nextOf(pages[i - 1]!.head.headers.link));
      const next = nextOf(page.head.headers.link);
      if (i < pages.length - 1) expect(next?.startsWith(`${app.url}/api/2026-07/`)).toBe(true);
      else expect(next).toBeUndefined();
    });
    expect(pages[0]!.head.url).toBe(
      `${app.url}/api/2026-07/listings.json?limit=50&fields=id,status`,
    );
    // The key stays on the server.
    expect(bytes.includes(DEMO_LIVE_TOKEN.slice('svc_live_'.length))).toBe(false);
  });

  it('ends with a page that is not a 200, handed over as the proxy would answer it', async () => {
    // The third upstream call of the walk fails: the answer brings two pages and that 500.
    const failing = await appFaultingListingsCall(sandbox.harness.url, 'error_500');
    try {
      const response = await fetch(
        walkUrl(failing.app, '/api/2026-07/listings.json?limit=50&fields=id'),
        { headers: sameOrigin(failing.app) },
      );
      const pages = pagesOfWalkAnswer(Buffer.from(await response.arrayBuffer()));
      expect(pages.map((page) => page.head.status)).toEqual([200, 200, 500]);
      expect(JSON.parse(pages[2]!.text)).toMatchObject({ svc_error: { code: 'internal_error' } });
      expect(failing.upstreamLog.log).toHaveLength(3);
    } finally {
      await failing.close();
    }
  });

  it('stops asking the upstream when the browser goes away', async () => {
    const slow = await startAppOverLog(sandbox.harness.url, DEMO_LIVE_TOKEN, { delayMs: () => 60 });
    try {
      const controller = new AbortController();
      const response = await fetch(
        walkUrl(slow.app, '/api/2026-07/listings.json?limit=10&fields=id'),
        { headers: sameOrigin(slow.app), signal: controller.signal },
      );
      const reader = response.body!.getReader();
      await reader.read();
      controller.abort();
      await new Promise((resolve) => setTimeout(resolve, 600));
      // 300 listings are 30 pages; the walk stopped within a call or two of the browser leaving.
      expect(slow.upstreamLog.log.length).toBeLessThanOrEqual(4);
    } finally {
      await slow.close();
    }
  });

  it('goes gzipped to a browser elsewhere, each page flushed as soon as it is written', async () => {
    // gzipLoopback: this test's loopback browser is answered as one on another machine would be.
    const remote = await startAppOverLog(
      sandbox.harness.url,
      DEMO_LIVE_TOKEN,
      { delayMs: () => 20 },
      { gzipLoopback: true },
    );
    try {
      const first = '/api/2026-07/listings.json?limit=10';
      const chunks: Buffer[] = [];
      let callsAtFirstPage: number | undefined;
      const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
        const request = get(
          walkUrl(remote.app, first),
          { headers: { ...sameOrigin(remote.app), 'accept-encoding': 'gzip' } },
          (response) => {
            response.on('data', (chunk: Buffer) => {
              chunks.push(chunk);
              if (callsAtFirstPage !== undefined) return;
              // What has arrived so far, unpacked up to its last flush.
              const sofar = gunzipSync(Buffer.concat(chunks), {
                finishFlush: constants.Z_SYNC_FLUSH,
              });
              if (pagesOfWalkAnswer(sofar).length > 0)
                callsAtFirstPage = remote.upstreamLog.log.length;
            });
            response.on('end', () => resolve(response.headers));
            response.on('error', reject);
          },
        );
        request.on('error', reject);
      });
      expect(headers['content-encoding']).toBe('gzip');
      const packed = Buffer.concat(chunks);
      const text = gunzipSync(packed);
      const pages = pagesOfWalkAnswer(text);
      // The same pages as the answer a browser on this machine gets, in a fraction of the bytes.
      const plain = await fetch(walkUrl(sandbox.served.app, first), {
        headers: sameOrigin(sandbox.served.app),
      });
      expect(plain.headers.get('content-encoding')).toBeNull();
      const plainPages = pagesOfWalkAnswer(Buffer.from(await plain.arrayBuffer()));
      expect(pages.map((page) => page.text)).toEqual(plainPages.map((page) => page.text));
      expect(pages).toHaveLength(30);
      expect(packed.length).toBeLessThan(text.length / 4);
      // The first page could be read whole as soon as it was written: by then the walk had asked
      // for it and for the next one only (unflushed, gzip holds pages back until its buffer fills).
      expect(callsAtFirstPage).toBeDefined();
      expect(callsAtFirstPage!).toBeLessThanOrEqual(2);
    } finally {
      await remote.close();
    }
  });

  it('walks only versioned API paths, for the page itself', async () => {
    const { app } = sandbox.served;
    for (const first of [
      '/etc/passwd',
      '/api/ping',
      '/hub/log',
      'http://elsewhere.test/api/2026-07/listings.json',
    ]) {
      const response = await fetch(walkUrl(app, first), { headers: sameOrigin(app) });
      expect(response.status, first).toBe(404);
    }
    const none = await fetch(`${app.url}/hub/walk`, { headers: sameOrigin(app) });
    expect(none.status).toBe(404);
    const post = await fetch(walkUrl(app, '/api/2026-07/listings.json'), {
      method: 'POST',
      headers: sameOrigin(app),
    });
    // No route takes a write there: it is a page's path, and pages are read-only.
    expect(post.status).toBe(405);
    const crossSite = await fetch(walkUrl(app, '/api/2026-07/listings.json'), {
      headers: { 'sec-fetch-site': 'cross-site', origin: 'http://evil.test' },
    });
    expect(crossSite.status).toBe(403);
  });
});
