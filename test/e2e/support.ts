import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** Runs axe on the page as it stands: zero violations, with their ids in the failure message. */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
  );
  expect(summary, summary.join('\n')).toEqual([]);
}

/** Saves a 1280×800 screenshot of the page under test/e2e/screenshots/. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `test/e2e/screenshots/${name}.png` });
}

/** Axe and a screenshot: what every page gets. */
export async function checkPage(page: Page, name: string): Promise<void> {
  await expectNoAxeViolations(page);
  await screenshot(page, name);
}

/** The control API of the sandbox behind the app (for setting up a scene). */
export async function control<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${process.env.SLABDESK_E2E_SANDBOX}/_sandbox${path}`, {
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
