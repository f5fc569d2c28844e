// @vitest-environment jsdom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '../../src/app/providers';
import { createClient } from '../../src/client';
import { NewRuleForm } from '../../src/features/rules/rule-form';
import { createQueryClient } from '../../src/lib/query-client';
import { DEMO_LIVE_TOKEN } from '../../src/sandbox';
import { useDemoSandbox } from './support/demo';
import { renderApp } from './support/render-app';

const sandbox = useDemoSandbox({ demoListings: 120 });

const open = async (path: string) => {
  const view = renderApp(path, { baseUrl: sandbox.harness.url, token: DEMO_LIVE_TOKEN });
  await waitFor(() => expect(screen.getByText(/of 120 listings/)).toBeInTheDocument(), {
    timeout: 15_000,
  });
  return { ...view, user: userEvent.setup() };
};

const headers = () =>
  within(screen.getByRole('table', { name: 'Listings' }))
    .getAllByRole('columnheader')
    .map((th) => th.textContent ?? '');

describe('saved views and columns', () => {
  it('the columns are a menu: it opens on its button, Escape closes it and gives focus back', async () => {
    localStorage.clear();
    const { user } = await open('/listings');
    const button = screen.getByRole('button', { name: 'Columns' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('checkbox', { name: 'Cert column' })).toBeNull();
    button.focus();
    await user.keyboard('{Enter}');
    expect(button).toHaveAttribute('aria-expanded', 'true');
    const panel = screen.getByRole('group', { name: 'Columns to show' });
    expect(button).toHaveAttribute('aria-controls', panel.id);
    // Focus goes into the panel, on its first choice.
    expect(panel).toContainElement(document.activeElement as HTMLElement);
    await user.keyboard('{Escape}');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('checkbox', { name: 'Cert column' })).toBeNull();
    expect(button).toHaveFocus();
  });

  it('shows the filters in force as pills, each removed by its own button', async () => {
    localStorage.clear();
    const { user, router } = await open('/listings?grader=PSA&offers=yes');
    const pills = screen.getByRole('list', { name: 'Filters in force' });
    expect(
      within(pills)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Grader: PSA×', 'Offers: Accepts offers×']);
    await user.click(screen.getByRole('button', { name: 'Remove the filter Grader: PSA' }));
    await waitFor(() =>
      expect(new URLSearchParams(router.state.location.search).get('grader')).toBeNull(),
    );
    expect(new URLSearchParams(router.state.location.search).get('offers')).toBe('yes');
    expect((screen.getByLabelText('Grader') as HTMLSelectElement).value).toBe('');
    await user.click(
      screen.getByRole('button', { name: 'Remove the filter Offers: Accepts offers' }),
    );
    await waitFor(() =>
      expect(screen.queryByRole('list', { name: 'Filters in force' })).toBeNull(),
    );
  });

  it('saves the filters and sort under a name, and brings them back from any state', async () => {
    localStorage.clear();
    const first = await open('/listings?grader=PSA&sort=price&dir=desc');
    await first.user.click(screen.getByRole('button', { name: 'Save as…' }));
    await first.user.type(screen.getByLabelText('View name'), 'PSA, dearest first');
    await first.user.click(screen.getByRole('button', { name: 'Save view' }));
    expect(await screen.findByText(/Saved the view “PSA, dearest first”/)).toBeInTheDocument();
    cleanup();

    const { user, router } = await open('/listings?status=draft');
    const views = screen.getByRole('group', { name: 'Saved views of the listings' });
    const view = within(views).getByRole('button', { name: 'PSA, dearest first' });
    expect(view).toHaveAttribute('aria-pressed', 'false');
    await user.click(view);
    await waitFor(() => {
      const search = new URLSearchParams(router.state.location.search);
      expect([search.get('grader'), search.get('sort'), search.get('dir')]).toEqual([
        'PSA',
        'price',
        'desc',
      ]);
      expect(search.get('status')).toBeNull();
    });
    expect((screen.getByLabelText('Grader') as HTMLSelectElement).value).toBe('PSA');
    await waitFor(() => expect(view).toHaveAttribute('aria-pressed', 'true'));
  });

  it('hides a column, puts the choice in the link, and remembers it for the next visit', async () => {
    localStorage.clear();
    const { user, router } = await open('/listings');
    expect(headers().some((h) => h.startsWith('Cert'))).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Columns' }));
    await user.click(screen.getByRole('checkbox', { name: 'Cert column' }));
    await waitFor(() => expect(headers().some((h) => h.startsWith('Cert'))).toBe(false));
    expect(new URLSearchParams(router.state.location.search).get('cols')).not.toContain('cert');
    cleanup();

    await open('/listings');
    expect(headers().some((h) => h.startsWith('Cert'))).toBe(false);
    expect(headers().some((h) => h.startsWith('Price'))).toBe(true);
  });

  it('the orders table has its own views', async () => {
    localStorage.clear();
    const user = userEvent.setup();
    renderApp('/orders?status=closed', { baseUrl: sandbox.harness.url, token: DEMO_LIVE_TOKEN });
    await screen.findByRole('table', { name: 'Orders' }, { timeout: 15_000 });
    await user.click(screen.getByRole('button', { name: 'Save as…' }));
    // Enter in the name box saves, as in any form.
    await user.type(screen.getByLabelText('View name'), 'Paid out{Enter}');
    const views = screen.getByRole('group', { name: 'Saved views of the orders' });
    expect(await within(views).findByRole('button', { name: 'Paid out' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    // Kept by the server, not this browser.
    expect(await viewsOnServer('orders')).toEqual([{ name: 'Paid out', search: 'status=closed' }]);
    expect(localStorage.getItem('slabdesk.views.v1.orders')).toBeNull();
  });

  it('lists a view saved on another device, and the rule form offers it', async () => {
    localStorage.clear();
    // The desk saves it (the page's hub is the server in front of the sandbox, sign-in off).
    const saved = await fetch(`${sandbox.harness.url}/hub/views`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ table: 'listings', name: 'From the desk', search: 'grader=BGS' }),
    });
    expect(saved.status).toBe(200);
    const { user, router } = await open('/listings');
    const views = screen.getByRole('group', { name: 'Saved views of the listings' });
    await user.click(await within(views).findByRole('button', { name: 'From the desk' }));
    await waitFor(() =>
      expect(new URLSearchParams(router.state.location.search).get('grader')).toBe('BGS'),
    );
    cleanup();

    const client = createClient({ baseUrl: sandbox.harness.url, apiKey: DEMO_LIVE_TOKEN });
    render(
      <AppProviders client={client} queryClient={createQueryClient({ retry: false })}>
        <NewRuleForm onCreated={() => {}} />
      </AppProviders>,
    );
    const scope = screen.getByLabelText('Listings (a saved view)');
    await within(scope).findByRole('option', { name: 'From the desk' });
    await user.selectOptions(scope, 'From the desk');
    expect(screen.getByText('The rule takes the view’s filters as they are now.')).toBeVisible();
  });

  it('moves the views this browser kept to the server once, then drops them here', async () => {
    localStorage.clear();
    localStorage.setItem(
      'slabdesk.views.v1.listings',
      JSON.stringify([{ name: 'Kept on this phone', search: 'grader=CGC' }]),
    );
    await open('/listings');
    const views = screen.getByRole('group', { name: 'Saved views of the listings' });
    await within(views).findByRole('button', { name: 'Kept on this phone' });
    expect(localStorage.getItem('slabdesk.views.v1.listings')).toBeNull();
    expect(await viewsOnServer('listings')).toContainEqual({
      name: 'Kept on this phone',
      search: 'grader=CGC',
    });
  });
});

describe('a view the server refuses', () => {
  it('says why beside the name, and keeps the form open', async () => {
    for (let n = 1; n <= 50; n++) {
      const put = await fetch(`${sandbox.harness.url}/hub/views`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ table: 'inventory', name: `Shelf ${n}`, search: `q=${n}` }),
      });
      expect(put.status).toBe(200);
    }
    const user = userEvent.setup();
    renderApp('/inventory', { baseUrl: sandbox.harness.url, token: DEMO_LIVE_TOKEN });
    const views = await screen.findByRole(
      'group',
      { name: 'Saved views of the cards' },
      { timeout: 15_000 },
    );
    await within(views).findByRole('button', { name: 'Shelf 50' });
    await user.click(screen.getByRole('button', { name: 'Save as…' }));
    await user.type(screen.getByLabelText('View name'), 'One too many{Enter}');
    expect(
      await screen.findByText('A table keeps at most 50 views; delete one to save another.'),
    ).toBeVisible();
    expect(screen.getByLabelText('View name')).toHaveAttribute('aria-invalid', 'true');
    expect(within(views).queryByRole('button', { name: 'One too many' })).toBeNull();
  });
});

/** A table's views as the server keeps them (name and search). */
async function viewsOnServer(table: string) {
  const answer = await fetch(`${sandbox.harness.url}/hub/views?table=${table}`);
  const body = (await answer.json()) as { views: { name: string; search: string }[] };
  return body.views.map(({ name, search }) => ({ name, search }));
}
