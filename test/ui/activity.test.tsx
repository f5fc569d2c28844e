// @vitest-environment jsdom
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client';
import { toCatalogueRow } from '../../src/features/listings/catalogue/catalogue-row';
import { jobFromPlan } from '../../src/features/listings/bulk-edit/jobs/job';
import { MemoryJobStore } from '../../src/features/listings/bulk-edit/jobs/job-store';
import { JobRunner } from '../../src/features/listings/bulk-edit/jobs/job-runner';
import { planBulkEdit } from '../../src/features/listings/bulk-edit/logic/diff';
import { toEditValues } from '../../src/features/listings/bulk-edit/logic/rows';
import { resetSessionEnded, sessionHeaders } from '../../src/lib/session';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import { distPages } from '../../src/server/dist-pages';
import { useDemoSandbox } from './support/demo';
import { renderApp } from './support/render-app';

const demo = useDemoSandbox();
let app: RunningAppServer;

beforeAll(async () => {
  const folder = mkdtempSync(join(tmpdir(), 'slabdesk-dist-'));
  mkdirSync(join(folder, 'assets'));
  writeFileSync(join(folder, 'index.html'), '<!doctype html><title>t</title>');
  app = await startAppServer(
    {
      upstream: { baseUrl: demo.harness.url, apiKey: demo.token },
      port: 0,
      activity: { path: ':memory:' },
    },
    async () => distPages(folder),
  );
});
afterAll(() => app?.close());

/** The page's boot facts, as the server writes them for a signed-in session. */
function signIn(role: 'owner' | 'editor' | 'viewer', name = 'sam', csrf = 'csrf-token-1') {
  for (const [meta, content] of [
    ['slabdesk-user', name],
    ['slabdesk-role', role],
    ['slabdesk-csrf', csrf],
  ] as const) {
    const element = document.createElement('meta');
    element.setAttribute('name', meta);
    element.setAttribute('content', content);
    document.head.append(element);
  }
}
afterEach(() => {
  cleanup();
  for (const element of document.head.querySelectorAll('meta[name^="slabdesk-"]')) element.remove();
  resetSessionEnded();
});

/** Requests the page's client made (method, path, headers), through a recording fetch. */
function recordingClient(answer?: (method: string, url: string) => Response | undefined) {
  const sent: { method: string; url: string; headers: Record<string, string> }[] = [];
  const client = createClient({
    baseUrl: `${app.url}/api`,
    retry: { unavailableBudgetSeconds: 0, transient: 0 },
    headers: ({ method }) => sessionHeaders(method),
    fetch: (input, init) => {
      const url = String(input);
      const method = init?.method ?? 'GET';
      sent.push({ method, url, headers: { ...(init?.headers as Record<string, string>) } });
      return Promise.resolve(answer?.(method, url) ?? fetch(input, init));
    },
  });
  return { client, sent };
}

/** An active, unsold demo listing no other test here touches. */
let taken = 0;
function freshListing() {
  const live = demo.products.filter(
    (p) => p.status === 'active' && p.svc_unavailable_reason === null && !p.svc_is_lot,
  );
  const listing = live[taken++];
  if (!listing) throw new Error('out of listings');
  return listing;
}

async function putThroughServer(id: string, listing: Record<string, unknown>) {
  const response = await fetch(`${app.url}/api/2026-07/listings/${id}.json`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ listing }),
  });
  expect(response.status).toBe(200);
}

/** The activity rows whose details name this listing id. */
const rowsWith = (id: string) =>
  screen.queryAllByRole('row').filter((row) => row.textContent?.includes(id));
function rowWith(table: HTMLElement, id: string): HTMLElement {
  const row = within(table)
    .getAllByRole('row')
    .find((one) => one.textContent?.includes(id));
  if (!row) throw new Error(`no row of ${id}`);
  return row;
}

describe('the Activity page', () => {
  it('lists a change with who, what and the price before and after, and filters by listing', async () => {
    const listing = freshListing();
    const before = listing.variants[0]!.price;
    await fetch(`${app.url}/api/2026-07/listings/${listing.id}.json`);
    await putThroughServer(listing.id, { price: '110.00' });
    const other = freshListing();
    await putThroughServer(other.id, { title: 'Another change' });
    const { client } = recordingClient();
    const { router } = renderApp('/activity', { baseUrl: app.url, token: '', client });
    const table = await screen.findByRole('table', {}, { timeout: 10_000 });
    // The card is named by its title; its id is under the row's "Details".
    const row = await waitFor(() => rowWith(table, listing.id));
    expect(within(row).getByRole('link', { name: /./ })).not.toHaveTextContent(listing.id);
    const dollars = (amount: string) => `$${Number(amount).toFixed(2)}`;
    expect(row).toHaveTextContent(`price ${dollars(before)} → $110.00`);
    expect(row).toHaveTextContent('This computer');
    expect(row).toHaveTextContent('Edited');
    expect(row).toHaveTextContent('Done');
    expect(rowWith(table, other.id)).toBeInTheDocument();

    const user = userEvent.setup();
    const form = screen.getByRole('search', { name: 'Filter the activity' });
    // The seller names the card by its cert number, as printed on the slab's label.
    await user.type(within(form).getByLabelText('Card'), listing.svc_card.cert_number);
    await user.click(within(form).getByRole('button', { name: 'Show' }));
    // Found in the kept catalogue (read first when this page had not read it yet).
    await waitFor(() => expect(router.state.location.search).toBe(`?listing=${listing.id}`), {
      timeout: 10_000,
    });
    await waitFor(() => expect(rowsWith(other.id)).toHaveLength(0));
    expect(rowsWith(listing.id)).toHaveLength(1);
    const csv = screen.getByRole('link', { name: 'Download CSV' });
    const zone = encodeURIComponent(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(csv.getAttribute('href')).toBe(
      `${app.url}/hub/activity.csv?listing=${listing.id}&tz=${zone}`,
    );
  });

  it('loads older changes a page at a time', async () => {
    const listing = freshListing();
    // The page reads 50 at a time: 52 changes are a page and a bit.
    for (let i = 0; i < 52; i++) await putThroughServer(listing.id, { title: `Title ${i}` });
    const { client } = recordingClient();
    renderApp(`/activity?listing=${listing.id}`, { baseUrl: app.url, token: '', client });
    await screen.findByText(/→ Title 51$/, {}, { timeout: 10_000 });
    expect(screen.getAllByText(/→ Title \d+$/)).toHaveLength(50);
    expect(screen.queryByText(/→ Title 0$/)).toBeNull();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Load older' }));
    await screen.findByText(/→ Title 0$/, {}, { timeout: 10_000 });
    expect(screen.getAllByText(/→ Title \d+$/)).toHaveLength(52);
    expect(screen.queryByRole('button', { name: 'Load older' })).toBeNull();
  });
});

describe('a bulk job', () => {
  it('names its job on every write, and the log files each write under it', async () => {
    const ids = [freshListing().id, freshListing().id];
    const { client, sent } = recordingClient();
    const read = await Promise.all(ids.map((id) => client.listings.get(id)));
    const take = read.map((answer) =>
      toCatalogueRow(answer.data as Parameters<typeof toCatalogueRow>[0]),
    );
    const plan = planBulkEdit(
      take,
      take.map((row) => ({ ...toEditValues(row), title: `Bulk ${row.id}` })),
    );
    const job = jobFromPlan(plan, 'Retitle two');
    const store = new MemoryJobStore();
    await store.create(job);
    await new JobRunner({ client, store, job }).start();
    const writes = sent.filter((request) => request.method === 'PUT');
    expect(writes).toHaveLength(2);
    for (const write of writes) expect(write.headers['X-Slabdesk-Bulk-Job']).toBe(job.id);
    await waitFor(
      async () => {
        const response = await fetch(`${app.url}/hub/activity?listing=${ids[0]}`);
        const body = (await response.json()) as { entries: { bulkJobId: string | null }[] };
        expect(body.entries[0]?.bulkJobId).toBe(job.id);
      },
      { timeout: 5_000 },
    );
  });
});

describe("a listing's history", () => {
  it('shows its latest changes on its page', async () => {
    const listing = freshListing();
    await putThroughServer(listing.id, { price: '123.00' });
    const { client } = recordingClient();
    renderApp(`/listings/${listing.id}`, { baseUrl: app.url, token: '', client });
    const history = await screen.findByRole('region', { name: 'History' }, { timeout: 10_000 });
    expect(history).toHaveTextContent('This computer · Edited: price');
    expect(history).toHaveTextContent('→ $123.00');
  });

  it('shows a deactivate and a reactivate in History without a reload', async () => {
    const listing = freshListing();
    const user = userEvent.setup();
    const { client } = recordingClient();
    renderApp(`/listings/${listing.id}`, { baseUrl: app.url, token: '', client });
    const history = await screen.findByRole('region', { name: 'History' }, { timeout: 10_000 });
    expect(history).toHaveTextContent('No change to this listing');
    await user.click(await screen.findByRole('button', { name: 'Deactivate' }));
    await user.click(
      within(screen.getByRole('dialog')).getByRole('button', { name: /Deactivate/ }),
    );
    await waitFor(() => expect(history).toHaveTextContent('Deactivated'), { timeout: 10_000 });
    await user.click(
      await screen.findByRole('button', { name: 'Reactivate' }, { timeout: 10_000 }),
    );
    await user.click(
      within(screen.getByRole('dialog')).getByRole('button', { name: 'Reactivate' }),
    );
    await waitFor(() => expect(history).toHaveTextContent('Reactivated'), { timeout: 10_000 });
  });

  it('is left out, quietly, against a server without the activity log', async () => {
    const listing = freshListing();
    renderApp(`/listings/${listing.id}`, { baseUrl: demo.harness.url, token: demo.token });
    await screen.findByRole('heading', { name: listing.title, level: 1 }, { timeout: 10_000 });
    await waitFor(() => expect(screen.getByRole('region', { name: 'Sale terms' })).toBeVisible());
    expect(screen.queryByRole('region', { name: 'History' })).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('the signed-in person', () => {
  it('is shown once with Sign out forms carrying the CSRF token; the CSRF header goes on writes', async () => {
    signIn('owner');
    const listing = freshListing();
    const { client, sent } = recordingClient();
    renderApp(`/listings/${listing.id}`, { baseUrl: app.url, token: '', client });
    await screen.findByRole('heading', { name: listing.title, level: 1 }, { timeout: 10_000 });
    const who = await screen.findByLabelText('Signed in');
    expect(who).toHaveTextContent('Signed in as sam, owner');
    for (const [name, action] of [
      ['Sign out', '/auth/sign-out'],
      ['Sign out everywhere', '/auth/sign-out-everywhere'],
    ]) {
      const form = within(who).getByRole('button', { name }).closest('form')!;
      expect(form.getAttribute('method')).toBe('post');
      expect(form.getAttribute('action')).toBe(action);
      expect(form.querySelector<HTMLInputElement>('input[name="csrf"]')?.value).toBe(
        'csrf-token-1',
      );
    }
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Set to draft' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Set to draft' }));
    await screen.findByText(/Set to draft: off the marketplace/, {}, { timeout: 10_000 });
    const write = sent.find((request) => request.method === 'PUT')!;
    expect(write.headers['X-Slabdesk-Csrf']).toBe('csrf-token-1');
    const reads = sent.filter((request) => request.method === 'GET');
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((request) => !('X-Slabdesk-Csrf' in request.headers))).toBe(true);
  });

  it("a viewer sees every write off with the viewer's reason", async () => {
    signIn('viewer', 'vic');
    const listing = freshListing();
    const { client } = recordingClient();
    renderApp(`/listings/${listing.id}`, { baseUrl: app.url, token: '', client });
    await screen.findByRole('heading', { name: listing.title, level: 1 }, { timeout: 10_000 });
    expect(document.getElementById('read-only-notice')).toHaveTextContent(
      'You are signed in as a viewer: you can look but not change anything.',
    );
    for (const name of ['Edit listing', 'Deactivate', 'Set to draft']) {
      const button = screen.getByRole('button', { name });
      expect(button).toBeDisabled();
      expect(button).toHaveAttribute('aria-describedby', 'read-only-notice');
    }
    expect(await screen.findByLabelText('Signed in')).toHaveTextContent('vic, viewer (read only)');
  });

  it('an editor edits, but Deactivate is off with its reason', async () => {
    signIn('editor', 'ed');
    const listing = freshListing();
    const { client } = recordingClient();
    renderApp(`/listings/${listing.id}`, { baseUrl: app.url, token: '', client });
    await screen.findByRole('heading', { name: listing.title, level: 1 }, { timeout: 10_000 });
    expect(screen.getByRole('link', { name: 'Edit listing' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Set to draft' })).toBeEnabled();
    const deactivate = screen.getByRole('button', { name: 'Deactivate' });
    expect(deactivate).toBeDisabled();
    expect(deactivate).toHaveAccessibleDescription(
      'You are signed in as an editor: only an owner can deactivate listings.',
    );
  });

  it('an ended session shows how to sign in again and keeps what was typed', async () => {
    signIn('owner');
    const listing = freshListing();
    // The server's answer once the session ended (signed out elsewhere), as the contract says.
    const { client } = recordingClient((method) =>
      method === 'PUT'
        ? new Response(
            JSON.stringify({
              errors: 'Sign in to continue.',
              svc_error: { code: 'sign_in_required', request_id: null },
            }),
            { status: 401, headers: { 'content-type': 'application/json' } },
          )
        : undefined,
    );
    renderApp(`/listings/${listing.id}/edit`, { baseUrl: app.url, token: '', client });
    const form = await screen.findByRole('form', { name: 'Edit listing' }, { timeout: 10_000 });
    const user = userEvent.setup();
    const price = within(form).getByLabelText('Price (USD)');
    await user.clear(price);
    await user.type(price, '99.00');
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    const banner = await screen.findByText(/Your session has ended/, {}, { timeout: 10_000 });
    const again = within(banner.closest('[role="alert"]') as HTMLElement).getByRole('link', {
      name: 'Sign in again',
    });
    expect(again.getAttribute('href')).toBe(
      `/sign-in?next=${encodeURIComponent(`/listings/${listing.id}/edit`)}`,
    );
    expect(screen.getByRole('form', { name: 'Edit listing' })).toBeInTheDocument();
    expect(within(form).getByLabelText('Price (USD)')).toHaveValue('99.00');
  });
});
