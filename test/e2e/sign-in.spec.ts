import { expect, test, type Page } from '@playwright/test';
import { DEMO_LIVE_TOKEN } from '../../src/sandbox';
import { E2E_ACCOUNTS } from './sign-in-accounts';
import { expectNoAxeViolations, screenshot } from './support';

/**
 * Sign in, work, sign out, on a phone and on a desk, against the suite's server that requires
 * sign-in (in front of the same demo sandbox); and a viewer, whose every write is off in the page
 * and refused by the server whatever the page sends.
 */

interface Account {
  name: string;
  role: string;
  password: string;
}

const base = () => process.env.SLABDESK_E2E_SIGN_IN_URL!;
const at = (path: string) => `${base()}${path}`;

const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

/** An active, unsold demo listing near the end of the catalogue (other specs use the last two). */
async function quietListing(offset: number): Promise<{ id: string; price: string; title: string }> {
  const response = await fetch(
    `${process.env.SLABDESK_E2E_SANDBOX!}/2026-07/listings.json?status=active&limit=250`,
    { headers: { 'X-Service-Access-Token': DEMO_LIVE_TOKEN } },
  );
  const { listings } = (await response.json()) as {
    listings: { id: string; price: string; title: string; unavailable_reason: string | null }[];
  };
  const free = listings.filter((listing) => listing.unavailable_reason === null);
  return free[free.length - 3 - offset]!;
}

/** Dollars as the page shows them ("$1,234.50"). */
const dollars = (amount: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(Number(amount));

/** Nothing of the page is wider than the window. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    window: window.innerWidth,
  }));
  expect(widths.page).toBeLessThanOrEqual(widths.window);
}

/** Fills and sends the sign-in form the page shows. */
async function submitSignIn(page: Page, account: Account, password = account.password) {
  const form = page.getByRole('main');
  await form.getByLabel('Name').fill(account.name);
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Sign in' }).click();
}

/** Opens a page signed out, is sent to sign in, and comes back to it signed in. */
async function signIn(page: Page, account: Account, path = '/listings'): Promise<void> {
  await page.goto(at(path));
  await expect(page).toHaveURL(at(`/sign-in?next=${encodeURIComponent(path)}`));
  await submitSignIn(page, account);
  await expect(page).toHaveURL(at(path));
}

/** The page's header: "Signed in as NAME, ROLE", Sign out, Sign out everywhere. */
const sessionGroup = (page: Page) => page.getByRole('banner');

for (const viewport of VIEWPORTS) {
  const narrow = viewport.width < 720;

  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });
    test.beforeEach(({ page }) => {
      page.on('pageerror', (error) => {
        throw error;
      });
    });

    test('the sign-in page passes axe and fits the window', async ({ page }) => {
      await page.goto(at('/listings'));
      await expect(page.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible();
      await expectNoAxeViolations(page);
      await expectNoSidewaysScroll(page);
      await screenshot(page, `sign-in-${viewport.width}`);
    });

    test('signs in, edits a price, finds it on Activity with the person, and signs out', async ({
      page,
    }) => {
      // An owner on the phone, an editor at the desk: both may edit.
      const account = narrow ? E2E_ACCOUNTS.owner : E2E_ACCOUNTS.editor;
      const listing = await quietListing(narrow ? 0 : 1);
      const newPrice = (Number(listing.price) + 1.25).toFixed(2);

      // Signed out, the catalogue sends the browser to sign in and remembers where it was going.
      await page.goto(at('/listings'));
      await expect(page).toHaveURL(at(`/sign-in?next=${encodeURIComponent('/listings')}`));
      await expect(page.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible();

      // A wrong password (of an account kept for it, as attempts are limited): the one message.
      await submitSignIn(page, E2E_ACCOUNTS.mistyped, 'not-the-password');
      const alert = page.getByRole('alert');
      await expect(alert).toHaveText(/\S/);
      const message = (await alert.textContent())!.trim();
      await expect(page.getByLabel('Password')).toHaveValue('');

      // The same message for a name with no account: a guesser learns nothing from it. (Once,
      // at one size: failures are limited per address too.)
      if (!narrow) {
        await submitSignIn(page, { ...E2E_ACCOUNTS.mistyped, name: 'nobody-here' }, 'nothing');
        await expect(page.getByRole('alert')).toHaveText(message);
      }

      // The right password lands back on the catalogue, signed in.
      await submitSignIn(page, account);
      await expect(page).toHaveURL(at('/listings'));
      await expect(page.getByRole('heading', { name: 'Listings', level: 1 })).toBeVisible();
      // The whole catalogue (other journeys on this sandbox may have listed more than the 600).
      await expect(page.getByText(/^(\d+) of \1 listings/)).toBeVisible({ timeout: 20_000 });
      // On a phone the person is behind the header's Account button.
      if (narrow) await sessionGroup(page).getByRole('button', { name: 'Account' }).click();
      await expect(sessionGroup(page)).toContainText(
        `Signed in as ${account.name}, ${account.role}`,
      );
      if (narrow) await sessionGroup(page).getByRole('button', { name: 'Account' }).click();
      await expectNoSidewaysScroll(page);

      // Work: a new price through the Edit form.
      await page.goto(at(`/listings/${listing.id}`));
      await page.getByRole('link', { name: 'Edit listing' }).click();
      const form = page.getByRole('form', { name: 'Edit listing' });
      await form.getByLabel('Price (USD)').fill(newPrice);
      await form.getByRole('button', { name: 'Save changes' }).click();
      await expect(page.getByText('Saved.')).toBeVisible();
      const terms = page.getByRole('region', { name: 'Sale terms' });
      await expect(terms.getByText(dollars(newPrice), { exact: true })).toBeVisible();
      await expectNoSidewaysScroll(page);

      // The Activity page names the person who made it (navigation behind Menu on a phone).
      if (narrow) await page.getByRole('button', { name: 'Menu' }).click();
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Activity' })
        .click();
      await expect(page.getByRole('heading', { name: 'Activity', level: 1 })).toBeVisible();
      const row = page
        .getByRole('table', { name: 'Changes, newest first' })
        .getByRole('row')
        .filter({ hasText: listing.title })
        .first();
      await expect(row).toContainText(`${account.name} (${account.role})`);
      await expect(row).toContainText(`price ${dollars(listing.price)} → ${dollars(newPrice)}`);
      await expect(row).toContainText('Done');
      await expectNoSidewaysScroll(page);
      await screenshot(page, `sign-in-activity-${viewport.width}`);

      // Sign out: back on the sign-in page, and the catalogue asks for sign-in again.
      if (narrow) await sessionGroup(page).getByRole('button', { name: 'Account' }).click();
      await sessionGroup(page).getByRole('button', { name: 'Sign out', exact: true }).click();
      await expect(page).toHaveURL(/\/sign-in(\?|$)/);
      await expect(page.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible();
      await page.goto(at('/listings'));
      await expect(page).toHaveURL(at(`/sign-in?next=${encodeURIComponent('/listings')}`));

      // The API from the page's own context: no session, no answer.
      const status = await page.evaluate(async () => {
        const response = await fetch('/api/2026-07/listings.json?limit=1', {
          credentials: 'same-origin',
        });
        return response.status;
      });
      expect(status).toBe(401);
      const answer = await page.request.get(at('/api/2026-07/listings.json?limit=1'));
      expect(answer.status()).toBe(401);
      expect(((await answer.json()) as { svc_error: { code: string } }).svc_error.code).toBe(
        'sign_in_required',
      );
    });

    test('a viewer sees every write off, and the server refuses one forced from the page', async ({
      page,
    }) => {
      const viewer = E2E_ACCOUNTS.viewer;
      const listing = await quietListing(narrow ? 2 : 3);
      await signIn(page, viewer);
      if (narrow) await sessionGroup(page).getByRole('button', { name: 'Account' }).click();
      await expect(sessionGroup(page)).toContainText(`Signed in as ${viewer.name}, viewer`);
      if (narrow) await sessionGroup(page).getByRole('button', { name: 'Account' }).click();

      // The one notice says why; every write on the catalogue is off and points at it.
      const notice = page.getByRole('note').filter({ hasText: 'Read-only.' });
      await expect(notice).toContainText('signed in as a viewer');
      await expect(page.getByText(/^(\d+) of \1 listings/)).toBeVisible({ timeout: 20_000 });
      for (const name of ['New listing', /^Bulk edit all \d+ matching/]) {
        const action = page.getByRole('button', { name });
        await expect(action).toBeDisabled();
        await expect(action).toHaveAccessibleDescription(/signed in as a viewer/);
      }
      await expect(page.getByRole('link', { name: 'New listing' })).toHaveCount(0);
      await expect(page.getByRole('link', { name: /^Bulk edit/ })).toHaveCount(0);
      await expectNoSidewaysScroll(page);

      // The listing's page: Edit and Deactivate off, with the same reason.
      await page.goto(at(`/listings/${listing.id}`));
      const edit = page.getByRole('button', { name: 'Edit listing' });
      await expect(edit).toBeDisabled();
      await expect(edit).toHaveAccessibleDescription(/signed in as a viewer/);
      await expect(page.getByRole('link', { name: 'Edit listing' })).toHaveCount(0);
      const deactivate = page.getByRole('button', { name: 'Deactivate' });
      await expect(deactivate).toBeDisabled();
      await expect(deactivate).toHaveAccessibleDescription(/signed in as a viewer/);
      await expectNoSidewaysScroll(page);
      await expectNoAxeViolations(page);
      await screenshot(page, `sign-in-viewer-${viewport.width}`);

      // The edit page itself is off too, when typed in.
      await page.goto(at(`/listings/${listing.id}/edit`));
      await expect(page.getByText(/this page is turned off/)).toBeVisible();
      await expect(page.getByRole('form', { name: 'Edit listing' })).toHaveCount(0);

      // A write forced from the page, with the session's own CSRF token: refused by the server.
      const refused = await page.evaluate(async (id) => {
        const csrf = document.querySelector('meta[name="slabdesk-csrf"]')!.getAttribute('content')!;
        const response = await fetch(`/api/2026-07/listings/${id}.json`, {
          method: 'PUT',
          credentials: 'same-origin',
          headers: { 'content-type': 'application/json', 'X-Slabdesk-Csrf': csrf },
          body: JSON.stringify({ listing: { price: '999.99' } }),
        });
        return { status: response.status, body: (await response.json()) as unknown };
      }, listing.id);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ svc_error: { code: 'role_forbidden' } });

      // And the price did not move.
      await page.goto(at(`/listings/${listing.id}`));
      await expect(
        page.getByRole('region', { name: 'Sale terms' }).getByText(dollars(listing.price), {
          exact: true,
        }),
      ).toBeVisible();
    });

    test('"Sign out everywhere" ends the session in another browser too', async ({ browser }) => {
      const account = E2E_ACCOUNTS.editor;
      const desk = await browser.newContext({ viewport });
      const phone = await browser.newContext({ viewport });
      try {
        const here = await desk.newPage();
        const there = await phone.newPage();
        await signIn(here, account);
        await signIn(there, account);
        if (narrow) await sessionGroup(there).getByRole('button', { name: 'Account' }).click();
        await expect(sessionGroup(there)).toContainText(`Signed in as ${account.name}`);

        if (narrow) await sessionGroup(here).getByRole('button', { name: 'Account' }).click();
        await sessionGroup(here).getByRole('button', { name: 'Sign out everywhere' }).click();
        await expect(here).toHaveURL(/\/sign-in(\?|$)/);

        // The other browser's next navigation asks for sign-in, and says why.
        await there.goto(at('/orders'));
        await expect(there).toHaveURL(at(`/sign-in?next=${encodeURIComponent('/orders')}&ended=1`));
        await expect(there.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible();
        await expect(there.getByRole('status')).toHaveText(/Your session has ended/);
        await expectNoAxeViolations(there);
      } finally {
        await desk.close();
        await phone.close();
      }
    });
  });
}
