import { resolve } from 'node:path';
import type { IncomingMessage } from 'node:http';
import { expect, test, type Page } from '@playwright/test';
import { DEMO_LIVE_TOKEN, startSandbox, type RunningSandbox } from '../../src/sandbox';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import { distPages } from '../../src/server/dist-pages';
import { vitePages } from '../../src/server/vite-pages';

/**
 * A seller's reload right after the catalogue came in: 2 s after it is searchable, with no wait
 * for the kept copy, on the production build the suite serves and on the dev server (Vite in
 * the app server, as `npm run dev`). A sandbox of its own holds the 10,000 listings.
 */
const LISTINGS = 10_000;
const root = resolve(import.meta.dirname, '../..');

let sandbox: RunningSandbox;
const apps: Record<'production' | 'dev', RunningAppServer | undefined> = {
  production: undefined,
  dev: undefined,
};

test.beforeAll(async () => {
  test.setTimeout(120_000);
  sandbox = await startSandbox({ port: 0, db: ':memory:', seed: 'demo', demoListings: LISTINGS });
});

test.afterAll(async () => {
  for (const app of Object.values(apps)) await app?.close();
  await sandbox?.close();
});

async function appFor(server: 'production' | 'dev'): Promise<RunningAppServer> {
  apps[server] ??= await startAppServer(
    { upstream: { baseUrl: sandbox.url, apiKey: DEMO_LIVE_TOKEN }, port: 0 },
    server === 'production'
      ? async () => distPages(resolve(root, 'dist/page'))
      : (http) => vitePages(http, root),
  );
  return apps[server];
}

/**
 * Every count the summary claimed as whole (no loading bar, not "so far"), in the page: a
 * catalogue must never look complete before its last page is in.
 */
const CLAIMS = `
  window.__claims = [];
  new MutationObserver(() => {
    const text = (document.querySelector('.table-summary') || {}).textContent || '';
    const match = /^\\d+ of (\\d+) listings/.exec(text);
    if (match && Number(match[1]) > 0 && !text.includes('so far') && !document.querySelector('.load-progress'))
      window.__claims.push(Number(match[1]));
  }).observe(document, { childList: true, subtree: true, characterData: true });
`;

const summary = (page: Page) => page.getByRole('status').filter({ hasText: / of .* listings/ });

/** The whole catalogue is in and the search narrows it. */
async function expectSearchable(page: Page, timeout: number) {
  const all = new RegExp(`^${LISTINGS} of ${LISTINGS} listings`);
  await expect(summary(page)).toHaveText(all, { timeout });
  await expect(page.locator('.load-progress')).toHaveCount(0, { timeout });
  const search = page.getByRole('searchbox', { name: 'Search' });
  await search.fill('zzzz-no-such-card');
  await expect(summary(page)).toHaveText(new RegExp(`^0 of ${LISTINGS} listings`));
  await search.fill('');
  await expect(summary(page)).toHaveText(all);
}

for (const server of ['production', 'dev'] as const) {
  test(`a reload 2 s after the catalogue is searchable shows it kept, in at most 3 reads (${server})`, async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    const app = await appFor(server);
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    page.on('pageerror', (error) => {
      throw error;
    });
    try {
      await page.addInitScript({ content: CLAIMS });
      await page.goto(`${app.url}/listings`);
      await expectSearchable(page, 120_000);
      const claims = await page.evaluate(() => (window as { __claims?: number[] }).__claims);
      expect(new Set(claims)).toEqual(new Set([LISTINGS]));
      await page.waitForTimeout(2000);

      // Every listings read of the reload, where it lands: at the sandbox.
      let reads = 0;
      const count = (request: IncomingMessage) => {
        if ((request.url ?? '').split('?')[0]!.endsWith('/listings.json')) reads++;
      };
      sandbox.app.server.on('request', count);
      try {
        await page.reload();
        await expectSearchable(page, 10_000);
        await expect(page.locator('.freshness')).toHaveText(/^Updated/, { timeout: 20_000 });
        await page.waitForTimeout(500);
      } finally {
        sandbox.app.server.off('request', count);
      }
      expect(reads).toBeLessThanOrEqual(3);
    } finally {
      await context.close();
    }
  });
}
