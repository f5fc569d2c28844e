import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import { distPages } from '../../src/server/dist-pages';

/** The page knows its mode before the first API answer: the server writes it into the HTML. */
describe('the mode in the page', () => {
  const apps: RunningAppServer[] = [];
  let dist: string;
  beforeAll(() => {
    dist = mkdtempSync(join(tmpdir(), 'slabdesk-boot-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(
      join(dist, 'index.html'),
      '<!doctype html><html><head><title>Slabdesk</title></head><body><div id="root"></div></body></html>',
    );
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  async function page(apiKey: string, keepDays?: number): Promise<string> {
    const app = await startAppServer(
      {
        upstream: { baseUrl: 'http://127.0.0.1:9', apiKey },
        port: 0,
        ...(keepDays ? { auth: { keepDays } } : {}),
      },
      async () => distPages(dist),
    );
    apps.push(app);
    const response = await fetch(`${app.url}/listings`);
    expect(response.status).toBe(200);
    return response.text();
  }

  it('says test for a test key and live for a live key, and never the key', async () => {
    const test = await page('svc_test_SecretPartOfTheKey000000000000001');
    expect(test).toContain('<meta name="slabdesk-mode" content="test" />');
    expect(test).not.toContain('SecretPartOfTheKey');
    const live = await page('svc_live_SecretPartOfTheKey000000000000001');
    expect(live).toContain('<meta name="slabdesk-mode" content="live" />');
    expect(live).not.toContain('SecretPartOfTheKey');
  });

  it('tells the page how long a device keeps data without its server: 7 days, or the setting', async () => {
    const key = 'svc_live_SecretPartOfTheKey000000000000001';
    expect(await page(key)).toContain('<meta name="slabdesk-keep-days" content="7" />');
    expect(await page(key, 2)).toContain('<meta name="slabdesk-keep-days" content="2" />');
  });
});
