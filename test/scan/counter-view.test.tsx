// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { useDemoSandbox } from '../ui/support/demo';
import { renderApp } from '../ui/support/render-app';

/**
 * The counter view on the real app over a real sandbox: what a dealer sees of a scanned cert, and
 * its one-tap writes checked in the sandbox itself.
 */
const demo = useDemoSandbox();

/** 10% off in cents, rounded half up: computed here independently of the app. */
const tenPercentOff = (price: string) =>
  (Math.floor((Math.round(Number(price) * 100) * 90 + 50) / 100) / 100).toFixed(2);

async function listingInSandbox(id: string) {
  const response = await demo.harness.api(`/listings/${id}.json`, { token: demo.token });
  return ((await response.json()) as { listing: { status: string; price: string } }).listing;
}

describe('the counter view', () => {
  it('shows a held slab: asking price, status, net online, cost and margin, days listed', async () => {
    const product = demo.products.find((p) => p.status === 'active' && !p.svc_is_lot)!;
    renderApp(`/show/cert/${product.svc_card.cert_number}`, {
      baseUrl: demo.harness.url,
      token: demo.token,
    });
    const view = await screen.findByRole(
      'region',
      { name: new RegExp(`cert ${product.svc_card.cert_number}`) },
      { timeout: 15_000 },
    );
    for (const label of ['Asking', 'Status', 'Nets online', 'Cost', 'Margin', 'Listed']) {
      expect(within(view).getByText(label)).toBeInTheDocument();
    }
    const price = Number(product.variants[0]!.price).toLocaleString('en-US', {
      style: 'currency',
      currency: 'USD',
    });
    expect(within(view).getByText(price)).toBeInTheDocument();
    expect(within(view).queryByText(/lst_/)).toBeNull();
  });

  it('lowers the price by 10% in one tap, rounded as the bulk editor rounds, written to the marketplace', async () => {
    const user = userEvent.setup();
    const product = demo.products.filter((p) => p.status === 'active' && !p.svc_is_lot)[1]!;
    const price = product.variants[0]!.price;
    renderApp(`/show/cert/${product.svc_card.cert_number}`, {
      baseUrl: demo.harness.url,
      token: demo.token,
    });
    const cut = await screen.findByRole('button', { name: /^−10%/ }, { timeout: 15_000 });
    await user.click(cut);
    const expected = tenPercentOff(price);
    await screen.findByText(
      new RegExp(`Price now \\$${expected.replace('.', '\\.')}`),
      {},
      {
        timeout: 10_000,
      },
    );
    expect((await listingInSandbox(product.id)).price).toBe(expected);
  });

  it('deactivates with a confirmation, then reactivates', async () => {
    const user = userEvent.setup();
    const product = demo.products.filter((p) => p.status === 'active' && !p.svc_is_lot)[2]!;
    renderApp(`/show/cert/${product.svc_card.cert_number}`, {
      baseUrl: demo.harness.url,
      token: demo.token,
    });
    await user.click(
      await screen.findByRole('button', { name: 'Deactivate' }, { timeout: 15_000 }),
    );
    await user.click(
      within(screen.getByRole('dialog', { name: 'Deactivate this listing?' })).getByRole('button', {
        name: 'Deactivate',
      }),
    );
    await screen.findByText(
      /Deactivated: the listing is off the marketplace/,
      {},
      { timeout: 10_000 },
    );
    expect((await listingInSandbox(product.id)).status).not.toBe('active');
    await user.click(await screen.findByRole('button', { name: 'Reactivate' }));
    await screen.findByText(/Reactivated/, {}, { timeout: 10_000 });
    expect((await listingInSandbox(product.id)).status).toBe('active');
  });

  it('flags a cert that sold before, with the date and the order code', async () => {
    const sold = demo.products.find((p) => p.svc_unavailable_reason === 'sold' && !p.svc_is_lot)!;
    renderApp(`/show/cert/${sold.svc_card.cert_number}`, {
      baseUrl: demo.harness.url,
      token: demo.token,
    });
    const alert = await screen.findByRole('alert', {}, { timeout: 15_000 });
    await waitFor(() => expect(alert).toHaveTextContent(/sold on \w{3} \d{1,2}(, \d{4})? as \S+/));
    expect(alert).toHaveTextContent(/counterfeits/);
  });

  it('a cert not held opens New listing with the cert filled in', async () => {
    renderApp('/show/cert/7012345678?grader=PSA', { baseUrl: demo.harness.url, token: demo.token });
    const cert = await screen.findByLabelText('Cert number', {}, { timeout: 15_000 });
    expect(cert).toHaveValue('7012345678');
    expect(screen.getByLabelText('Grader')).toHaveValue('PSA');
  });
});
