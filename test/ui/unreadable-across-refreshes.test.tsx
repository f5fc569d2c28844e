// @vitest-environment jsdom
// idb recognises requests by the global IndexedDB classes: fake-indexeddb's, installed here, so
// the app keeps its copies as a browser does and a second render is a reload over them.
import 'fake-indexeddb/auto';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeptDb } from '../../src/api/kept/kept-db';
import { createClient, type ResponseMeta } from '../../src/client';
import type { Harness } from '../support/sandbox-harness';
import { startDemo } from './support/demo';
import { renderApp } from './support/render-app';

/**
 * A listing the server sends degraded is reported until a read returns it whole: the hub's
 * `updated_at_min` reads do not bring an unchanged record again, and must not forget it.
 */

let harness: Harness;
let token: string;
let listingIds: string[];

beforeAll(async () => {
  ({ harness, token } = await startDemo());
  listingIds = [];
  let next: string | undefined = '/listings.json?limit=250';
  while (next) {
    const response = await harness.api(next, { token });
    const body = (await response.json()) as { listings: { id: string }[] };
    listingIds.push(...body.listings.map((listing) => listing.id));
    next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
  }
});
afterAll(async () => {
  cleanup();
  await harness?.control('PUT', '/faults', { degraded_ids: [] });
  await harness?.close();
});

/** The app over the sandbox, with the listings reads it makes (their query strings). */
function openListings() {
  const listingReads: URLSearchParams[] = [];
  const client = createClient({
    baseUrl: harness.url,
    apiKey: token,
    retry: { unavailableBudgetSeconds: 0, transient: 0 },
    onResponse: (meta: ResponseMeta) => {
      const url = new URL(meta.url);
      if (url.pathname.endsWith('/listings.json')) listingReads.push(url.searchParams);
    },
  });
  renderApp('/listings', { baseUrl: harness.url, token, client });
  return listingReads;
}

const notice = () => screen.queryByText(/listings? could not be read and (is|are) left out/);
const summary = () => screen.getByText(/^\d+ of \d+ listings/);

describe('a listing that could not be read', () => {
  it('stays reported across updated_at_min refreshes until a read returns it whole', async () => {
    const degraded = listingIds[7]!;
    const total = listingIds.length;
    await harness.control('PUT', '/faults', { degraded_ids: [degraded] });

    // The first visit walks every page: the degraded listing is named and left out.
    openListings();
    await waitFor(() => expect(notice()).not.toBeNull(), { timeout: 15_000 });
    expect(notice()!.textContent).toMatch(/^1 listing could not be read and is left out/);
    const details = within(notice()!.closest('[role="status"]') as HTMLElement).getByText(
      'Details',
    ).parentElement!;
    expect(details.textContent).toContain(degraded);
    await waitFor(
      () =>
        expect(screen.getByText(/^\d+ of \d+ listings/).textContent).toMatch(
          new RegExp(`^\\d+ of ${total - 1} listings \\(1 unreadable, left out\\)`),
        ),
      // The notice can come (from the hub) before the page's own read ends on a busy machine.
      { timeout: 15_000 },
    );

    // The copy is kept in IndexedDB (the app writes it in moments it can spare).
    const db = new KeptDb(indexedDB, IDBKeyRange);
    await waitFor(async () => expect((await db.load('listings'))?.head.rowCount).toBe(total - 1), {
      timeout: 10_000,
    });

    // A reload, after the hub's reconciliations by updated_at_min (which do not bring the
    // unchanged listing again): the kept copy and the hub's changes since, no read of the API.
    cleanup();
    const reads = openListings();
    await screen.findByText(/last refresh brought/, {}, { timeout: 15_000 });
    expect(reads).toEqual([]);
    expect(notice()).not.toBeNull();
    expect(notice()!.textContent).toMatch(/^1 listing could not be read and is left out/);
    expect(summary().textContent).toMatch(
      new RegExp(`^\\d+ of ${total - 1} listings \\(1 unreadable, left out\\)`),
    );

    // The server sends it whole again, and it changed: the next refresh brings it back.
    await harness.control('PUT', '/faults', { degraded_ids: [] });
    const put = await harness.api(`/listings/${degraded}.json`, {
      token,
      method: 'PUT',
      body: { listing: { price: '123.45' } },
    });
    expect(put.status).toBe(200);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(
      () => expect(summary().textContent).toMatch(new RegExp(`^\\d+ of ${total} listings`)),
      { timeout: 15_000 },
    );
    expect(summary().textContent).not.toContain('unreadable');
    expect(notice()).toBeNull();
  }, 60_000);
});
