// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
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
  it('saves the filters and sort under a name, and brings them back from any state', async () => {
    localStorage.clear();
    const first = await open('/listings?grader=PSA&sort=price&dir=desc');
    await first.user.type(screen.getByLabelText('View name'), 'PSA, dearest first');
    await first.user.click(screen.getByRole('button', { name: 'Save view' }));
    expect(screen.getByText(/Saved the view “PSA, dearest first”/)).toBeInTheDocument();
    cleanup();

    const { user, router } = await open('/listings?status=draft');
    await user.selectOptions(screen.getByLabelText('Saved view'), 'PSA, dearest first');
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
  });

  it('hides a column, puts the choice in the link, and remembers it for the next visit', async () => {
    localStorage.clear();
    const { user, router } = await open('/listings');
    expect(headers().some((h) => h.startsWith('Cert'))).toBe(true);
    await user.click(screen.getByText('Columns'));
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
    await user.type(screen.getByLabelText('View name'), 'Paid out');
    await user.click(screen.getByRole('button', { name: 'Save view' }));
    const views = screen.getByLabelText('Saved view');
    expect(within(views).getByRole('option', { name: 'Paid out' })).toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem('slabdesk.views.v1.orders') ?? '[]')).toEqual([
      { name: 'Paid out', search: 'status=closed' },
    ]);
  });
});
