import type { Browser } from '@playwright/test';
import { DEMO_LIVE_TOKEN, DEMO_SELLER_ID, type RunningSandbox } from '../src/sandbox';
import { distPages } from '../src/server/dist-pages';
import { median, round, type Bench } from './bench-api';
import { withDemoBrowser, withVisit } from './browser-setup';
import { keystrokeMs } from './keystroke';
import { sized } from './quick';

/** Enough listings that more than 1,000 of them are active (the grid's 1,000 rows); a quick run: a few hundred. */
const LISTINGS = sized(2_400, 300);
const EDITS = sized(120, 44);
/** The grid's size the keystrokes are measured at, and the row reached with the arrow keys. */
const MIN_ACTIVE = sized(1000, 100);
const FAR_ROW = sized(500, 60);
/** The live bucket's minimum for 120 writes from empty: 40 at once, then 2 a second. */
const MINIMUM_SECONDS = (EDITS - 40) / 2;

interface Row {
  id: string;
  status: string;
  svc_is_lot: boolean;
  variants: { price: string }[];
}

async function allProducts(sandbox: RunningSandbox): Promise<Row[]> {
  const rows: Row[] = [];
  let next: string | undefined = `${sandbox.url}/2026-07/products.json?limit=250`;
  while (next) {
    const response: Response = await fetch(next, {
      headers: { 'X-Service-Access-Token': DEMO_LIVE_TOKEN },
    });
    if (response.status === 429) {
      await response.text();
      await new Promise((r) => setTimeout(r, 1000));
      continue;
    }
    rows.push(...((await response.json()) as { products: Row[] }).products);
    next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
  }
  return rows;
}

/** A fresh live key for the demo seller: its own, empty bucket. */
async function freshKey(sandbox: RunningSandbox): Promise<string> {
  const response = await fetch(`${sandbox.url}/_sandbox/keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      seller_id: DEMO_SELLER_ID,
      mode: 'live',
      scopes: ['read_listings', 'write_listings'],
    }),
  });
  return ((await response.json()) as { key: { token: string } }).key.token;
}

/** In-page marks (strings: tsx would wrap functions with helpers the page lacks). */
const APPLY_MARKS = `
  window.__bulk = {};
  document.addEventListener('click', (event) => {
    const button = event.target.closest && event.target.closest('button');
    if (button && /^(Apply|Yes, apply) [\\d,]+ change/.test(button.textContent || '')) window.__bulk.start = performance.now();
  }, true);
  new MutationObserver(() => {
    if (window.__bulk.start !== undefined && window.__bulk.end === undefined) {
      const heading = document.getElementById('bulk-apply-heading');
      if (heading && heading.textContent.startsWith('Finished')) window.__bulk.end = performance.now();
    }
  }).observe(document, { childList: true, subtree: true, characterData: true });
`;

/** 120 price edits applied from the UI, with a fresh live key, from an empty bucket. */
async function applyEdits(
  browser: Browser,
  sandbox: RunningSandbox,
  outDir: string,
  ids: readonly string[],
): Promise<{ seconds: number; rateLimited: number; summary: string }> {
  const key = await freshKey(sandbox);
  return withVisit(
    browser,
    { baseUrl: sandbox.url, apiKey: key },
    async () => distPages(outDir),
    async (page, appUrl) => {
      await page.addInitScript({ content: APPLY_MARKS });
      let rateLimited = 0;
      let lastUsed = 0;
      page.on('response', (response) => {
        if (!new URL(response.url()).pathname.startsWith('/api/')) return;
        if (response.status() === 429) rateLimited++;
        const used = /^(\d+)\//.exec(response.headers()['x-service-api-call-limit'] ?? '');
        if (used) lastUsed = Number(used[1]);
      });
      await page.goto(`${appUrl}/listings/bulk-edit?ids=${ids.join(',')}`);
      await page
        .getByRole('table', { name: `Bulk edit grid, ${ids.length} listings` })
        .waitFor({ timeout: 120_000 });
      await page.getByLabel('Price change', { exact: true }).selectOption('lower-percent');
      await page.getByLabel('Percent (%)').fill('10');
      await page.getByRole('button', { name: 'Apply price change' }).click();
      await page.getByRole('button', { name: 'Preview changes' }).click();
      const apply = page.getByRole('button', { name: `Apply ${ids.length} changes` });
      await apply.waitFor();
      // A price 10% off may fall below cost: the seller ticks to sell it so, as this run means.
      const belowCost = page.getByRole('checkbox', {
        name: /^Sell (these [\d,]+|this one) below cost$/,
      });
      if (await belowCost.isVisible()) await belowCost.check();
      // Let the bucket drain what loading the page used: the run starts from an empty bucket.
      await page.waitForTimeout((lastUsed / 2 + 1.5) * 1000);
      rateLimited = 0;
      await apply.click();
      // Past 20 changes the seller is asked first; the run (and its clock) starts at the yes.
      const yes = page.getByRole('button', { name: /^Yes, apply / });
      await yes.or(page.locator('#bulk-apply-heading')).first().waitFor();
      if (await yes.isVisible()) await yes.click();
      await page.waitForFunction('window.__bulk.end !== undefined', undefined, {
        timeout: 180_000,
      });
      const marks = (await page.evaluate('window.__bulk')) as { start: number; end: number };
      const summary = (await page.locator('.bulk-progress-text').textContent()) ?? '';
      return { seconds: (marks.end - marks.start) / 1000, rateLimited, summary };
    },
  );
}

/** Keystrokes in the grid at 1,000+ rows (all the active listings matching `status=active`). */
async function gridKeystrokes(
  browser: Browser,
  sandbox: RunningSandbox,
  outDir: string,
  expectedRows: number,
): Promise<number[]> {
  return withVisit(
    browser,
    { baseUrl: sandbox.url, apiKey: await freshKey(sandbox) },
    async () => distPages(outDir),
    async (page, appUrl) => {
      await page.goto(`${appUrl}/listings/bulk-edit?status=active`);
      await page
        .getByRole('table', { name: `Bulk edit grid, ${expectedRows} listings` })
        .waitFor({ timeout: 120_000 });
      const times: number[] = [];
      const type = async () => {
        await page.keyboard.press('End');
        for (const key of [
          '1',
          '2',
          '3',
          'Backspace',
          'Backspace',
          'Backspace',
          '9',
          'Backspace',
        ]) {
          times.push(await keystrokeMs(page, key));
        }
      };
      // A price near the top (its row re-validates on each keystroke)...
      await page.getByRole('textbox', { name: 'Price, row 1', exact: true }).focus();
      await type();
      // ...and a title 500 rows down, reached with the arrow keys as a seller would (the grid
      // scrolls its window along).
      await page.getByRole('textbox', { name: 'Title, row 1', exact: true }).focus();
      for (let i = 1; i < FAR_ROW; i += 1) await page.keyboard.press('ArrowDown');
      const far = page.getByRole('textbox', { name: `Title, row ${FAR_ROW}`, exact: true });
      await far.waitFor();
      if (!(await far.evaluate((el) => el === document.activeElement))) {
        throw new Error(`the arrow keys did not reach row ${FAR_ROW}`);
      }
      await type();
      return times;
    },
  );
}

const bench: Bench = {
  figures: ['bulk.ui_edits_120.ratio', 'bulk.ui_edits_120.429s', 'bulk.grid_keystroke_ms'],
  async run(report) {
    await withDemoBrowser({ demoListings: LISTINGS }, async ({ outDir, sandbox, browser }) => {
      const products = await allProducts(sandbox);
      const active = products.filter((p) => p.status === 'active');
      const editable = active.filter((p) => !p.svc_is_lot && Number(p.variants[0]!.price) >= 12);
      if (active.length < MIN_ACTIVE || editable.length < EDITS) {
        throw new Error(`the demo store has ${active.length} active listings; need ${MIN_ACTIVE}`);
      }

      const keystrokes = await gridKeystrokes(browser, sandbox, outDir, active.length);
      console.log(`  (grid of ${active.length} rows, ${keystrokes.length} keystrokes)`);
      report('bulk.grid_keystroke_ms', round(median(keystrokes), 1));

      const run = await applyEdits(
        browser,
        sandbox,
        outDir,
        editable.slice(0, EDITS).map((p) => p.id),
      );
      console.log(`  (${run.summary}; ${round(run.seconds, 2)} s for ${EDITS} writes)`);
      if (!run.summary.startsWith(`${EDITS} of ${EDITS} saved`))
        throw new Error(`not all done: ${run.summary}`);
      report('bulk.ui_edits_120.ratio', round(run.seconds / MINIMUM_SECONDS, 3));
      report('bulk.ui_edits_120.429s', run.rateLimited);
    });
  },
};

export default bench;
