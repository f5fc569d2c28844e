// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { useDemoSandbox } from '../ui/support/demo';
import { renderApp } from '../ui/support/render-app';

/**
 * The Scan dialog in the real app over a real sandbox, driven by the typed-cert field (jsdom has
 * no camera: the dialog says so and typing stays possible). The camera path is the browser
 * suite's (test/e2e/scan.spec.ts).
 */
const demo = useDemoSandbox();

const active = () => demo.products.filter((p) => p.status === 'active' && !p.svc_is_lot);

describe('the Scan dialog', () => {
  it('opens with s, says there is no camera, and a typed cert opens its counter view', async () => {
    const user = userEvent.setup();
    const product = active()[3]!;
    const { router } = renderApp('/listings', { baseUrl: demo.harness.url, token: demo.token });
    await screen.findByRole('heading', { name: 'Listings', level: 1 }, { timeout: 15_000 });
    await user.keyboard('s');
    const dialog = await screen.findByRole('dialog', { name: 'Scan a slab' }, { timeout: 10_000 });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(/No camera was found/);
    await user.type(
      within(dialog).getByLabelText('Or type the cert number'),
      product.svc_card.cert_number,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Look up' }));
    await waitFor(
      () =>
        expect(router.state.location.pathname).toBe(`/show/cert/${product.svc_card.cert_number}`),
      { timeout: 15_000 },
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    await screen.findByRole(
      'region',
      { name: new RegExp(`cert ${product.svc_card.cert_number}`) },
      { timeout: 15_000 },
    );
  });

  it('a URL with a cert is reduced to it; anything else is shown as read', async () => {
    const user = userEvent.setup();
    const product = active()[4]!;
    const { router } = renderApp('/listings', { baseUrl: demo.harness.url, token: demo.token });
    await user.click(await screen.findByRole('button', { name: 'Scan' }, { timeout: 15_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Scan a slab' }, { timeout: 10_000 });
    const field = within(dialog).getByLabelText('Or type the cert number');
    await user.type(field, 'SL-4F2K9Q{Enter}');
    expect(within(dialog).getByText(/Read “SL-4F2K9Q”: not a cert number/)).toBeInTheDocument();
    await user.type(field, `https://www.psacard.com/cert/${product.svc_card.cert_number}{Enter}`);
    await waitFor(
      () =>
        expect(router.state.location.pathname).toBe(`/show/cert/${product.svc_card.cert_number}`),
      { timeout: 15_000 },
    );
    expect(router.state.location.search).toBe('?grader=PSA');
  });

  it('a stack ignores repeats and opens the slabs held in the bulk editor', async () => {
    const user = userEvent.setup();
    const picks = active().slice(5, 8);
    const { router } = renderApp('/listings', { baseUrl: demo.harness.url, token: demo.token });
    await user.click(await screen.findByRole('button', { name: 'Scan' }, { timeout: 15_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Scan a slab' }, { timeout: 10_000 });
    await user.click(within(dialog).getByRole('radio', { name: 'A stack' }));
    const field = within(dialog).getByLabelText('Or type a cert to add it');
    for (const product of [...picks, picks[0]!]) {
      await user.type(field, `${product.svc_card.cert_number}{Enter}`);
    }
    expect(within(dialog).getByText(/is in the stack already/)).toBeInTheDocument();
    // One not held: listed, but not sent to the bulk editor.
    await user.type(field, '7099999999{Enter}');
    expect(
      within(dialog).getByRole('heading', { name: 'In the stack: 4 slabs' }),
    ).toBeInTheDocument();
    await within(dialog).findByText('not in your listings', {}, { timeout: 15_000 });
    await user.click(
      within(dialog).getByRole('button', { name: 'Open 3 listings in the bulk editor' }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/listings/bulk-edit'), {
      timeout: 15_000,
    });
    const ids = new URLSearchParams(router.state.location.search).get('ids')!.split(',');
    expect(ids.sort()).toEqual(picks.map((p) => p.id).sort());
  });
});
