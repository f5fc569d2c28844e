// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LIVE_TOKEN } from '../../src/sandbox';
import { startHarness, type Harness } from '../support/sandbox-harness';
import { withFullShapes } from '../support/test-shapes';
import { readAll } from './support/read-all';
import { renderApp } from './support/render-app';

/**
 * A card relisted through `inventory_item_id` has two listings and one inventory level, which
 * describes its newest listing. The old listing's reason is its own (its single view), never the
 * level's: against a sandbox serving only the documented shapes (the list view does not say why
 * a listing is off the marketplace), an old deactivated listing reads "Ended by you",
 * not its successor's state (issue 50, item 6).
 */
let harness: Harness;
const token = DEMO_LIVE_TOKEN;

interface ListRow {
  id: string;
  title: string;
  status: string;
  is_lot: boolean;
  card: { id: string };
}
interface Level {
  inventory_item_id: string;
  available: number;
  svc_unavailable_reason: string | null;
}

/** The old listings: one relisted live, one relisted on a schedule. */
let relistedLive: ListRow;
let relistedLater: ListRow;

async function call(path: string, method: string, body?: unknown): Promise<unknown> {
  const response = await harness.api(path, {
    token,
    method,
    body,
    headers: { 'Idempotency-Key': crypto.randomUUID() },
  });
  if (!response.ok)
    throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** Deactivates a listing, then lists its card again by `inventory_item_id`. */
async function relist(listing: ListRow, extra: Record<string, unknown> = {}) {
  await call(`/listings/${listing.id}.json`, 'DELETE');
  await call('/listings.json', 'POST', {
    listing: { inventory_item_id: listing.card.id, price: '123.00', ...extra },
  });
}

beforeAll(async () => {
  harness = await startHarness({
    seed: 'demo',
    demoListings: 120,
    rateLimit: false,
    shapes: 'documented',
  });
  const listings = await readAll<ListRow>(harness, token, '/listings.json', 'listings');
  const singles = listings.filter((l) => l.status === 'active' && !l.is_lot);
  [relistedLive, relistedLater] = [singles[0]!, singles[1]!];
  await relist(relistedLive);
  await relist(relistedLater, {
    scheduled_go_live_at: new Date(Date.now() + 3 * 86_400_000).toISOString(),
  });
});
afterEach(() => {
  cleanup();
  localStorage.clear();
});
afterAll(() => harness?.close());

/** The sandbox's own reasons, from its full product shapes (never the page's reads). */
const deactivatedCount = async () =>
  (
    await withFullShapes(harness, () =>
      readAll<{ status: string; svc_unavailable_reason: string | null }>(
        harness,
        token,
        '/products.json',
        'products',
      ),
    )
  ).filter((p) => p.status === 'archived' && p.svc_unavailable_reason === 'deactivated_by_seller')
    .length;

describe('a card relisted through inventory_item_id', () => {
  it('has one level, which speaks of its newest listing, and an old listing that is deactivated', async () => {
    const levels = await readAll<Level>(
      harness,
      token,
      '/inventory_levels.json',
      'inventory_levels',
    );
    const levelOf = (card: string) => levels.find((l) => l.inventory_item_id === card)!;
    expect(levelOf(relistedLive.card.id).available).toBe(1);
    expect(levelOf(relistedLater.card.id)).toMatchObject({
      available: 0,
      svc_unavailable_reason: 'scheduled',
    });
    for (const old of [relistedLive, relistedLater]) {
      const single = (await call(`/listings/${old.id}.json`, 'GET')) as {
        listing: { status: string; unavailable_reason: string | null };
      };
      expect(single.listing).toMatchObject({
        status: 'archived',
        unavailable_reason: 'deactivated_by_seller',
      });
    }
  });

  it('Listings reads each old listing as ended by you, and counts them so', async () => {
    const deactivated = await deactivatedCount();
    expect(deactivated).toBeGreaterThanOrEqual(2);
    renderApp('/listings', { baseUrl: harness.url, token });
    const summary = () => screen.getByText(/of \d+ listings/);
    await waitFor(() => expect(summary().textContent).toMatch(/of 122 listings/), {
      timeout: 15_000,
    });
    const status = screen.getByLabelText('Status');
    await waitFor(
      () =>
        expect(within(status).getByRole('option', { name: 'Ended by you' })).toBeInTheDocument(),
      { timeout: 15_000 },
    );
    await userEvent.setup().selectOptions(status, 'Ended by you');
    await waitFor(
      () => expect(summary().textContent).toMatch(new RegExp(`^${deactivated} of 122 `)),
      { timeout: 15_000 },
    );
    const table = screen.getByRole('table', { name: 'Listings' });
    for (const old of [relistedLive, relistedLater]) {
      const link = within(table)
        .getAllByRole('link')
        .find((a) => a.getAttribute('href')?.endsWith(`/listings/${old.id}`));
      expect(link, old.id).toBeDefined();
      const row = link!.closest('tr')!;
      expect(within(row).getByText('Ended by you')).toBeInTheDocument();
    }
    expect(table.textContent).not.toMatch(/deactivated_by_seller/);
  });
});
