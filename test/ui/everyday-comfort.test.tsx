// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LIVE_TOKEN, DEMO_TEST_TOKEN, DEMO_UNLISTED_CERTS } from '../../src/sandbox';
import { describeOutcome } from '../../src/features/listings/forms/listing-outcome';
import { startHarness, type Harness } from '../support/sandbox-harness';
import { withFullShapes } from '../support/test-shapes';
import { renderApp } from './support/render-app';

/**
 * The rough edges a new seller met (issue "Everyday comfort"), each reproduced against a real
 * demo sandbox and shown fixed.
 */
let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ seed: 'demo', demoListings: 200, rateLimit: false });
});
afterEach(() => {
  cleanup();
  localStorage.clear();
});
afterAll(() => harness?.close());

const summary = () => screen.getByText(/of \d+ listings/);

async function openListings(path = '/listings', token = DEMO_LIVE_TOKEN) {
  const view = renderApp(path, { baseUrl: harness.url, token });
  await waitFor(() => expect(summary().textContent).toMatch(/of 200 listings/), {
    timeout: 15_000,
  });
  return { ...view, user: userEvent.setup() };
}

describe('the listings page', () => {
  it('a filter chosen while the search is still settling keeps both (no reset)', async () => {
    const { user, router } = await openListings();
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'psa');
    // Within the search's 250 ms pause: the old timer used to write back the params it was made
    // from, dropping this filter.
    await user.selectOptions(screen.getByLabelText('Grader'), 'PSA');
    await waitFor(() => {
      const search = new URLSearchParams(router.state.location.search);
      expect(search.get('q')).toBe('psa');
      expect(search.get('grader')).toBe('PSA');
    });
    // The search reaches the URL only when its pause timer fires, so seeing `q` above means the
    // timer has fired: nothing is left pending to drop the filter, and both are still there.
    const search = new URLSearchParams(router.state.location.search);
    expect([search.get('q'), search.get('grader')]).toEqual(['psa', 'PSA']);
  });

  it('the Status filter offers Sold, and it shows only sold listings', async () => {
    const { user } = await openListings();
    const status = screen.getByLabelText('Status');
    expect(within(status).getByRole('option', { name: 'Sold' })).toBeInTheDocument();
    await user.selectOptions(status, 'sold');
    const sold = await withFullShapes(harness, async () => {
      const response = await harness.api('/products.json?limit=250', { token: DEMO_LIVE_TOKEN });
      const body = (await response.json()) as {
        products: { svc_unavailable_reason: string | null }[];
      };
      return body.products.filter((p) => p.svc_unavailable_reason === 'sold').length;
    });
    expect(sold).toBeGreaterThan(0);
    await waitFor(() => expect(summary().textContent).toMatch(new RegExp(`^${sold} of 200`)));
  });

  it('a listing page leads with its title, never its internal id', async () => {
    const response = await harness.api('/listings.json?limit=5', { token: DEMO_LIVE_TOKEN });
    const { listings } = (await response.json()) as { listings: { id: string; title: string }[] };
    const listing = listings[0]!;
    renderApp(`/listings/${listing.id}`, { baseUrl: harness.url, token: DEMO_LIVE_TOKEN });
    const heading = await screen.findByRole(
      'heading',
      { name: listing.title, level: 1 },
      { timeout: 10_000 },
    );
    expect(heading.textContent).not.toContain(listing.id);
    expect(document.querySelector('.breadcrumb')?.textContent).not.toContain(listing.id);
  });
});

describe('orders', () => {
  it('open orders lead with those to ship, soonest deadline first, and say "to the hub"', async () => {
    renderApp('/orders', { baseUrl: harness.url, token: DEMO_LIVE_TOKEN });
    const table = await screen.findByRole('table', { name: 'Orders' }, { timeout: 15_000 });
    const header = within(table).getByRole('columnheader', { name: /To the hub/ });
    expect(header).toHaveAttribute('aria-sort', 'ascending');
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .filter((row) => row.getAttribute('aria-hidden') !== 'true');
    const texts = rows.map((row) => row.textContent ?? '');
    const firstDone = texts.findIndex((text) => !text.includes('Ship by'));
    // Every order still to ship comes before any that already went.
    if (firstDone >= 0) {
      expect(texts.slice(firstDone).some((text) => text.includes('Ship by'))).toBe(false);
    }
    expect(texts[0]).toContain('Ship by');
    expect(texts.join(' ')).not.toMatch(/\bdelivered\b(?! to the hub)/i);
  });
});

describe('inventory', () => {
  it('writes the instants in a reason for a person, not as raw UTC', async () => {
    // A card sold and waiting to ship: its reason names the ship-by instant.
    const read = async <T,>(path: string) =>
      (await (await harness.api(path, { token: DEMO_LIVE_TOKEN })).json()) as T;
    const { inventory_levels: levels } = await read<{
      inventory_levels: { inventory_item_id: string; svc_unavailable_reason: string | null }[];
    }>('/inventory_levels.json?limit=250');
    const sold = levels.find((level) => level.svc_unavailable_reason === 'sold')!;
    const { inventory_items: items } = await read<{
      inventory_items: { id: string; sku: string }[];
    }>('/inventory_items.json?limit=250');
    const cert = items.find((item) => item.id === sold.inventory_item_id)!.sku;
    renderApp(`/inventory?q=${cert}`, { baseUrl: harness.url, token: DEMO_LIVE_TOKEN });
    const table = await screen.findByRole('table', { name: 'Inventory' }, { timeout: 15_000 });
    await waitFor(() => expect(table.textContent).toMatch(/Sold in order/));
    expect(table.textContent).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
  });
});

describe('test mode', () => {
  it('a listing made with a test key is not called live for buyers', () => {
    expect(describeOutcome('active', null, null, 'test').text).toMatch(/test mode/);
    expect(describeOutcome('active', null, null, 'test').text).not.toMatch(/buyers can see/);
    expect(describeOutcome('active', null, null, 'live').text).toMatch(/buyers can see/);
  });
});

describe('read-only keys', () => {
  it('a key without write_listings offers no write anywhere, under one notice', async () => {
    // A second key of the demo seller that can only read.
    const demo = await harness.control<{ demo: { seller_id: string } }>('GET', '/demo');
    const key = await harness.control<{ key: { token: string } }>('POST', '/keys', {
      seller_id: demo.body.demo.seller_id,
      mode: 'live',
      scopes: ['read_listings', 'read_inventory', 'read_orders'],
    });
    const token = key.body.key.token;
    renderApp('/listings', { baseUrl: harness.url, token });
    const notice = await screen.findByText(
      /lacks the write_listings scope/,
      {},
      { timeout: 10_000 },
    );
    expect(notice.closest('[role="note"]')?.textContent).toMatch(/Read-only/);
    const create = screen.getByRole('button', { name: 'New listing' });
    expect((create as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByRole('link', { name: 'New listing' })).toBeNull();
    cleanup();
    // A listing of that seller: every write on its page is disabled and points at the notice.
    const response = await harness.api('/listings.json?limit=250', { token });
    const { listings } = (await response.json()) as {
      listings: { id: string; title: string; status: string }[];
    };
    const active = listings.find((listing) => listing.status === 'active')!;
    renderApp(`/listings/${active.id}`, { baseUrl: harness.url, token });
    await screen.findByRole('heading', { name: active.title, level: 1 }, { timeout: 10_000 });
    for (const name of ['Edit listing', 'Deactivate', 'Set to draft']) {
      const button = await screen.findByRole('button', { name });
      expect((button as HTMLButtonElement).disabled).toBe(true);
      expect(button).toHaveAttribute('aria-describedby', 'read-only-notice');
    }
    cleanup();
    renderApp('/listings/bulk-edit', { baseUrl: harness.url, token });
    expect(
      await screen.findByText(/this page is turned off/, {}, { timeout: 10_000 }),
    ).toBeTruthy();
  });

  it('a test key refused with test_mode_forbidden keeps the typed price, says why, and is remembered', async () => {
    const production = await startHarness({
      seed: 'demo',
      demoListings: 40,
      rateLimit: false,
      deployment: 'production',
    });
    try {
      const response = await production.api('/listings.json?limit=250', { token: DEMO_TEST_TOKEN });
      const { listings } = (await response.json()) as {
        listings: { id: string; status: string; title: string; price: string }[];
      };
      const [listing, other] = listings.filter((l) => l.status === 'active');
      // A price within 3 times the last, so the save is sent without a question.
      const typed = (Math.floor(Number(listing!.price) * 1.2) + 0.99).toFixed(2);
      const user = userEvent.setup();
      renderApp(`/listings/${listing!.id}/edit`, {
        baseUrl: production.url,
        token: DEMO_TEST_TOKEN,
      });
      const form = await screen.findByRole('form', { name: 'Edit listing' }, { timeout: 10_000 });
      const price = within(form).getByLabelText('Price (USD)');
      await user.clear(price);
      await user.type(price, typed);
      await user.click(within(form).getByRole('button', { name: 'Save changes' }));
      // The refusal says why, and the form stays with what was typed.
      const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
      await waitFor(() => expect(alert).toHaveTextContent(/Test-mode keys are read-only/));
      const kept = screen.getByRole('form', { name: 'Edit listing' });
      expect(within(kept).getByLabelText('Price (USD)')).toHaveValue(typed);
      expect(screen.queryByText(/this page is turned off/)).toBeNull();
      // Writes are off from then on: another edit page is turned off, with the same reason.
      cleanup();
      renderApp(`/listings/${other!.id}/edit`, {
        baseUrl: production.url,
        token: DEMO_TEST_TOKEN,
      });
      expect(
        await screen.findByText(/this page is turned off/, {}, { timeout: 10_000 }),
      ).toBeInTheDocument();
      expect(screen.getAllByText(/Test-mode keys are read-only/).length).toBeGreaterThan(0);
    } finally {
      await production.close();
    }
  });
});

describe('review before it goes live', () => {
  it('creates the listing scheduled, shows the resolved card, and goes live on request', async () => {
    const cert = DEMO_UNLISTED_CERTS[0]!.cert_number;
    const user = userEvent.setup();
    renderApp('/listings/new', { baseUrl: harness.url, token: DEMO_LIVE_TOKEN });
    const form = await screen.findByRole('form', { name: /New listing/ }, { timeout: 10_000 });
    await user.type(within(form).getByLabelText(/Cert number/), cert);
    await user.type(within(form).getByLabelText('Price (USD)'), '125.00');
    // On by default (test/ui/safe-defaults.test.tsx): nothing to tick.
    expect(within(form).getByLabelText('Check the card before it goes live')).toBeChecked();
    await user.click(within(form).getByRole('button', { name: /Create listing/ }));
    const review = await screen.findByRole(
      'region',
      { name: 'Is this the right card?' },
      { timeout: 10_000 },
    );
    await waitFor(() => expect(within(review).getByText(cert)).toBeInTheDocument());
    expect(screen.getByText(/Scheduled/)).toBeInTheDocument();
    await user.click(within(review).getByRole('button', { name: 'Go live now' }));
    await within(review).findByText(/live now/, {}, { timeout: 10_000 });
    const listings = await harness.api('/listings.json?limit=250', { token: DEMO_LIVE_TOKEN });
    const all: { status: string; card: { cert_number: string } }[] = [];
    all.push(...((await listings.json()) as { listings: typeof all }).listings);
    const created = all.find((l) => l.card.cert_number === cert);
    expect(created?.status).toBe('active');
  });
});

describe('an SGC cert with the form as it comes', () => {
  it('lists cert 7312004 with the defaults: the marketplace reviews it, no go-live time is promised', async () => {
    const cert = '7312004';
    expect(DEMO_UNLISTED_CERTS.find((c) => c.cert_number === cert)?.grader).toBe('SGC');
    const user = userEvent.setup();
    renderApp('/listings/new', { baseUrl: harness.url, token: DEMO_LIVE_TOKEN });
    const form = await screen.findByRole('form', { name: /New listing/ }, { timeout: 10_000 });
    await user.type(within(form).getByLabelText(/Cert number/), cert);
    await user.type(within(form).getByLabelText('Price (USD)'), '80');
    // Nothing else touched: every grader tried, and the seller's own check on.
    expect(within(form).getByLabelText('Grader')).toHaveValue('');
    expect(within(form).getByLabelText('Check the card before it goes live')).toBeChecked();
    await user.click(within(form).getByRole('button', { name: /Create listing/ }));
    const outcome = await screen.findByRole(
      'heading',
      { name: 'Listing created' },
      { timeout: 10_000 },
    );
    expect(outcome).toBeInTheDocument();
    const status = screen.getByText(/Pending review/);
    expect(status.textContent).toMatch(/marketplace’s review/);
    expect(status.textContent).toMatch(/no go-live time is set/);
    expect(screen.queryByText(/Scheduled/)).toBeNull();
    expect(screen.queryByText(/goes live at/)).toBeNull();
    // The card is shown for the seller's check; only the review can put it live.
    const review = screen.getByRole('region', { name: 'Is this the right card?' });
    await waitFor(() => expect(within(review).getByText(cert)).toBeInTheDocument());
    expect(within(review).queryByRole('button', { name: 'Go live now' })).toBeNull();
    expect(within(review).getByRole('button', { name: 'Withdraw' })).toBeInTheDocument();
    // What the sandbox holds: the one listing of the cert, pending review, with no time set.
    const products = await withFullShapes(harness, async () => {
      const response = await harness.api('/products.json?limit=250', { token: DEMO_LIVE_TOKEN });
      return (await response.json()) as {
        products: {
          svc_unavailable_reason: string | null;
          svc_scheduled_go_live_at: string | null;
          svc_card: { cert_number: string };
        }[];
      };
    });
    const made = products.products.filter((p) => p.svc_card.cert_number === cert);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({
      svc_unavailable_reason: 'pending_review',
      svc_scheduled_go_live_at: null,
    });
  });
});

describe('the overview and Orders agree', () => {
  it('counts as open exactly the orders Orders → Open lists', async () => {
    const response = await harness.api('/orders.json?status=open&limit=250&fields=id', {
      token: DEMO_LIVE_TOKEN,
    });
    const open = ((await response.json()) as { orders: unknown[] }).orders.length;
    renderApp('/', { baseUrl: harness.url, token: DEMO_LIVE_TOKEN });
    const work = await screen.findByRole('region', { name: 'Work' }, { timeout: 15_000 });
    const term = within(work).getByText('Open orders', { selector: 'dt' });
    await waitFor(() => expect(term.nextElementSibling?.textContent).toBe(String(open)), {
      timeout: 15_000,
    });
    cleanup();
    renderApp('/orders?status=open', { baseUrl: harness.url, token: DEMO_LIVE_TOKEN });
    await waitFor(
      () => expect(screen.getByText(new RegExp(`^${open} of ${open} orders`))).toBeInTheDocument(),
      {
        timeout: 15_000,
      },
    );
  });
});

describe('the mode from the first paint', () => {
  it('shows the test-mode banner while the connection check has not answered', async () => {
    // An API that accepts and never answers: the banner can only come from the page itself.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const meta = document.createElement('meta');
    meta.name = 'slabdesk-mode';
    meta.content = 'test';
    document.head.append(meta);
    try {
      renderApp('/listings', { baseUrl: `http://127.0.0.1:${port}`, token: DEMO_TEST_TOKEN });
      expect(
        await screen.findByText(
          /Test mode: you are looking at test records/,
          {},
          { timeout: 10_000 },
        ),
      ).toBeTruthy();
    } finally {
      cleanup();
      meta.remove();
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
