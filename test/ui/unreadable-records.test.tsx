// @vitest-environment jsdom
import { cleanup, screen, within, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy } from '../client/fault-proxy';
import type { Harness } from '../support/sandbox-harness';
import { startDemo } from './support/demo';
import { renderApp } from './support/render-app';
import { newHubInFront } from '../support/hub-in-front';

/**
 * Pages that list records say which ones they could not read, by id, and never hang: a walk
 * that does not end is stopped with what was read kept, and a slow API is shown as such.
 */

let harness: Harness;
let token: string;
let itemIds: string[];
let orderIds: string[];

async function ids(path: string, envelope: string): Promise<string[]> {
  const out: string[] = [];
  let next: string | undefined = `${path}?limit=250`;
  while (next) {
    const response = await harness.api(next, { token });
    out.push(
      ...((await response.json()) as Record<string, { id: string }[]>)[envelope]!.map((r) => r.id),
    );
    next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
  }
  return out;
}

beforeAll(async () => {
  ({ harness, token } = await startDemo());
  itemIds = await ids('/inventory_items.json', 'inventory_items');
  orderIds = await ids('/orders.json', 'orders');
});
afterEach(async () => {
  cleanup();
  await harness.control('PUT', '/faults', { degraded_ids: [] });
});
afterAll(() => harness?.close());

const summaryOf = (noun: string) => screen.getByText(new RegExp(`^\\d+ of \\d+ ${noun}`));

// A busy machine fills each page's hub slowly: the waits are for what the page shows.
describe('records that could not be read', { timeout: 60_000 }, () => {
  it('the inventory page names every card it left out, by id', async () => {
    const degraded = itemIds.filter((_, i) => i % 3 === 2);
    await harness.control('PUT', '/faults', { degraded_ids: degraded });
    renderApp('/inventory', { baseUrl: harness.url, token });
    const notice = await screen.findByText(/cards? could not be read/, {}, { timeout: 40_000 });
    expect(notice.textContent).toContain(`${degraded.length} cards could not be read`);
    // The ids are for support, under the notice's "Details".
    const details = within(notice.closest('[role="status"]') as HTMLElement).getByText(
      'Details',
    ).parentElement!;
    for (const id of degraded) expect(details.textContent).toContain(id);
    const kept = itemIds.length - degraded.length;
    expect(summaryOf('cards').textContent).toBe(
      `${kept} of ${kept} cards (${degraded.length} unreadable, left out)`,
    );
  });

  it('the orders page names every order it left out, by id', async () => {
    const degraded = [orderIds[0]!, orderIds[17]!, orderIds.at(-1)!];
    await harness.control('PUT', '/faults', { degraded_ids: degraded });
    // A server that first reads the store now, while the records are degraded.
    await newHubInFront(harness.url);
    renderApp('/orders?status=any', { baseUrl: harness.url, token });
    const notice = await screen.findByText(/orders? could not be read/, {}, { timeout: 40_000 });
    // The ids are for support, under the notice's "Details".
    const details = within(notice.closest('[role="status"]') as HTMLElement).getByText(
      'Details',
    ).parentElement!;
    for (const id of degraded) expect(details.textContent).toContain(id);
    // The rows follow the notice in their own (deferred) render: at load 14 it took over 1 s.
    const kept = orderIds.length - 3;
    const summary = new RegExp(`^${kept} of ${kept} orders`);
    expect(await screen.findByText(summary, {}, { timeout: 40_000 })).toBeTruthy();
  });

  it('a card with a null where text belongs is shown or named, never silently dropped', async () => {
    const victim = itemIds[4]!;
    const proxy = await startFaultProxy(harness.url, {
      rewriteBody: (text, info) => {
        if (!info.url.includes('/inventory_items.json')) return text;
        const body = JSON.parse(text) as { inventory_items: Record<string, unknown>[] };
        for (const item of body.inventory_items) if (item.id === victim) item.svc_card_set = null;
        return JSON.stringify(body);
      },
    });
    try {
      renderApp('/inventory', { baseUrl: proxy.url, token });
      await waitFor(() => expect(summaryOf('cards')).toBeTruthy(), { timeout: 40_000 });
      const [, shown] = /^\d+ of (\d+)/.exec(summaryOf('cards').textContent ?? '')!;
      const named = screen.queryByText(/could not be read/)?.textContent ?? '';
      const left = named.includes(victim) ? 1 : 0;
      expect(Number(shown) + left).toBe(itemIds.length);
    } finally {
      await proxy.close();
    }
  });
});

describe('walks and waits that would not end', () => {
  it('a looping cursor stops with a banner naming cursor_loop, keeping the cards read', async () => {
    let first: string | undefined;
    const proxy = await startFaultProxy(harness.url, {
      rewriteLink: (link) => {
        if (!link.includes('inventory_items')) return link;
        const next = /<([^>]+)>;\s*rel="next"/.exec(link)?.[1];
        first ??= next;
        return first && next ? link.replace(next, first) : link;
      },
    });
    try {
      renderApp('/inventory', { baseUrl: proxy.url, token });
      const alert = await screen.findByRole('alert', {}, { timeout: 15_000 });
      expect(alert.textContent).toContain('Inventory is incomplete');
      expect(alert.textContent).toContain('cursor_loop');
      // Two pages of 250 were read before the loop showed.
      expect(summaryOf('cards').textContent).toMatch(/^500 of 500 cards/);
      expect(proxy.log.filter((e) => e.url.includes('inventory_items')).length).toBeLessThan(5);
    } finally {
      await proxy.close();
    }
  });

  it('a slow API shows "still waiting" with a Try again that starts the reads afresh', async () => {
    let slow = true;
    const proxy = await startFaultProxy(harness.url, { delayMs: () => (slow ? 60_000 : 0) });
    try {
      renderApp('/locations', { baseUrl: proxy.url, token });
      const status = await screen.findByText(/Still waiting for the API/, {}, { timeout: 12_000 });
      expect(status.textContent).toMatch(/Loading locations… Still waiting for the API \(\d+ s\)/);
      slow = false;
      await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
      await screen.findByRole('heading', { name: /hub|vault/i }, { timeout: 10_000 });
      expect(screen.queryByText(/Still waiting/)).toBeNull();
      // The stuck reads (the connection probe and locations) were started afresh, once each.
      const locations = proxy.log.filter((entry) => entry.url.includes('/locations.json'));
      expect(locations.length).toBeGreaterThanOrEqual(1);
      expect(locations.length).toBeLessThanOrEqual(2);
      expect(proxy.log.length).toBeLessThanOrEqual(4);
    } finally {
      await proxy.close();
    }
  }, 30_000);
});
