import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { buildFiles, readManifest } from './build-manifest';

/**
 * The sandbox behind the app under test: the full-shape one, or (in the `documented` project) the
 * one that serves exactly the spec's documented fields.
 */
export function sandboxUrl(): string {
  return test.info().project.name === 'documented'
    ? process.env.SLABDESK_E2E_DOCUMENTED_SANDBOX!
    : process.env.SLABDESK_E2E_SANDBOX!;
}

/**
 * The axe rules Lighthouse 12's accessibility audit switches on beyond axe's defaults (its
 * gatherer's list, e.g. `target-size` and `heading-order`), so this run catches what it catches.
 */
const LIGHTHOUSE_RULES = [
  'accesskeys',
  'aria-allowed-role',
  'aria-conditional-attr',
  'aria-deprecated-role',
  'aria-dialog-name',
  'aria-prohibited-attr',
  'aria-treeitem-name',
  'aria-text',
  'color-contrast',
  'empty-heading',
  'heading-order',
  'html-xml-lang-mismatch',
  'identical-links-same-purpose',
  'image-redundant-alt',
  'input-button-name',
  'label-content-name-mismatch',
  'landmark-one-main',
  'link-in-text-block',
  'meta-viewport',
  'select-name',
  'skip-link',
  'tabindex',
  'table-duplicate-name',
  'table-fake-caption',
  'target-size',
  'td-has-header',
];

/** Runs axe on the page as it stands, with axe's defaults plus Lighthouse's extra rules. */
export function axeResults(page: Page) {
  return new AxeBuilder({ page })
    .options({
      rules: Object.fromEntries(LIGHTHOUSE_RULES.map((id) => [id, { enabled: true }])),
    })
    .analyze();
}

/** Runs axe on the page as it stands: zero violations, with their ids in the failure message. */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  const results = await axeResults(page);
  const summary = results.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
  );
  expect(summary, summary.join('\n')).toEqual([]);
}

/** Saves a 1280×800 screenshot of the page under test/e2e/screenshots/ (one folder a project). */
export async function screenshot(page: Page, name: string): Promise<void> {
  const project = test.info().project.name;
  const folder = project === 'documented' ? 'screenshots/documented' : 'screenshots';
  await page.screenshot({ path: `test/e2e/${folder}/${name}.png` });
}

/** Axe and a screenshot: what every page gets. */
export async function checkPage(page: Page, name: string): Promise<void> {
  await expectNoAxeViolations(page);
  await screenshot(page, name);
}

/** The control API of the sandbox behind the app (for setting up a scene). */
export async function control<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${sandboxUrl()}/_sandbox${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await response.json()) as T;
}

/** 10% off in cents, rounded half up: the grid's arithmetic, done here independently. */
export function lowered(price: string): string {
  const cents = BigInt(price.replace('.', ''));
  const result = (cents * 9n * 2n + 10n) / 20n;
  return `${result / 100n}.${(result % 100n).toString().padStart(2, '0')}`;
}

/**
 * Clicks a bulk preview's Apply for `changes` changes; past 20 changes or $500 moved (the prices
 * before and after, as the API writes them) the page asks first, naming both, and is answered yes.
 */
export async function applyBulk(
  page: Page,
  changes: number,
  before: readonly string[],
  after: readonly string[],
  /** How many the preview warns would sell below cost: ticked to sell them so, as the test means. */
  belowCost = 0,
): Promise<void> {
  if (belowCost > 0) {
    const warning = page.getByRole('region', {
      name: `${belowCost} listings would sell below cost`,
    });
    await expect(page.getByRole('button', { name: `Apply ${changes} changes` })).toBeDisabled();
    await warning.getByRole('checkbox', { name: `Sell these ${belowCost} below cost` }).check();
  }
  await page.getByRole('button', { name: `Apply ${changes} changes` }).click();
  const moved = before.reduce(
    (sum, price, i) =>
      sum + Math.abs(Number(BigInt(after[i]!.replace('.', '')) - BigInt(price.replace('.', '')))),
    0,
  );
  if (changes <= 20 && moved <= 50_000) return;
  const ask = page.getByRole('dialog', { name: `Apply ${changes} changes?` });
  const way = before.some((price, i) => Number(after[i]) < Number(price)) ? 'Lower' : 'Raise';
  const total = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(
    moved / 100,
  );
  await expect(ask.getByRole('listitem')).toHaveText([
    `${way} ${changes} prices by ${total} in all.`,
    ...(belowCost > 0 ? [`Sell ${belowCost} listings below cost, as you chose.`] : []),
  ]);
  await ask.getByRole('button', { name: `Yes, apply ${changes} changes` }).click();
}

/**
 * Until the service worker controls the page (clients.claim, once its shell is kept), has kept
 * a page for a reload with no network, and every file of the build (kept once the page is idle).
 */
export async function untilKeptOffline(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), {
      timeout: 30_000,
    })
    .toBe(true);
  await expect
    .poll(
      () =>
        page.evaluate(async () =>
          (await caches.open('slabdesk-pages')).keys().then((k) => k.length),
        ),
      { timeout: 30_000 },
    )
    .toBeGreaterThan(0);
  const files = buildFiles(readManifest()).filter((file) => !file.endsWith('.html'));
  await expect
    .poll(
      () =>
        page.evaluate(
          async (paths) =>
            (await Promise.all(paths.map((path) => caches.match(`/${path}`)))).filter(
              (kept) => !kept,
            ).length,
          files,
        ),
      { timeout: 30_000 },
    )
    .toBe(0);
}

/**
 * Until the page has drawn two more frames and run the tasks queued behind them: the layout
 * shifts of what it shows now are recorded (a state, where a pause would guess a time).
 */
export async function framesDrawn(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((done) =>
        requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 0))),
      ),
  );
}
