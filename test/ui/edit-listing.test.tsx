// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../support/sandbox-harness';
import { findProduct, startDemo, type DemoProduct } from './support/demo';
import { DOCUMENTED_ONLY, withFullShapes } from '../support/test-shapes';
import { renderApp } from './support/render-app';

let harness: Harness;
let token: string;
let listing: DemoProduct;

beforeAll(async () => {
  ({ harness, token } = await startDemo());
  listing = await findProduct(
    harness,
    token,
    (p) => p.status === 'active' && p.svc_accepts_offers && !p.svc_is_lot,
  );
});
afterEach(() => cleanup());
afterAll(() => harness?.close());

async function openEdit() {
  const view = renderApp(`/listings/${listing.id}/edit`, { baseUrl: harness.url, token });
  const form = await screen.findByRole('form', { name: 'Edit listing' }, { timeout: 10_000 });
  return { ...view, form, user: userEvent.setup() };
}

const fieldError = (input: HTMLElement) => {
  const ids = (input.getAttribute('aria-describedby') ?? '').split(' ');
  return ids
    .map((id) => document.getElementById(id))
    .filter((el) => el?.classList.contains('field-error'))
    .map((el) => el!.textContent)
    .join(' ');
};

describe('the edit form checks the spec’s bounds before sending', () => {
  it.each([
    ['', 'Enter a price'],
    ['9.99', 'from $10 to $1,000,000'],
    ['1000000.01', 'from $10 to $1,000,000'],
    ['12.345', 'at most 2 decimals'],
    ['abc', 'at most 2 decimals'],
  ])('price %j is refused: %s', async (value, message) => {
    const { user } = await openEdit();
    const price = screen.getByLabelText('Price (USD)');
    await user.clear(price);
    if (value) await user.type(price, value);
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(price).toBeInvalid());
    expect(fieldError(price)).toContain(message);
  });

  it('refuses an empty title, a title over 180 and a description over 1000 characters', async () => {
    const { user } = await openEdit();
    const title = screen.getByLabelText('Title');
    await user.clear(title);
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(fieldError(title)).toContain('cannot be empty'));
    await user.click(title);
    await user.paste('x'.repeat(181));
    const description = screen.getByLabelText('Description');
    await user.clear(description);
    await user.click(description);
    await user.paste('y'.repeat(1001));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(fieldError(title)).toContain('At most 180'));
    expect(fieldError(description)).toContain('At most 1000');
  });

  it('refuses a malformed minimum offer', async () => {
    const { user } = await openEdit();
    const minimum = screen.getByLabelText('Minimum offer (USD)');
    await user.clear(minimum);
    await user.type(minimum, '12.345');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(fieldError(minimum)).toContain('at most 2 decimals'));
  });
});

describe('server errors land on their fields', () => {
  it('a minimum offer above the price: the server’s 422 appears on the minimum offer field', async () => {
    const { user } = await openEdit();
    const price = Number(listing.variants[0]!.price);
    const minimum = screen.getByLabelText('Minimum offer (USD)');
    await user.clear(minimum);
    await user.type(minimum, (price + 50).toFixed(2));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(minimum).toBeInvalid(), {
      timeout: 10_000,
    });
    expect(fieldError(minimum)).toContain('must be at most the price');
    expect(screen.getByLabelText('Price (USD)').getAttribute('aria-invalid')).toBe('false');
  });

  it('a new price with a minimum offer above it: the server’s 422 appears on both fields', async () => {
    const { user } = await openEdit();
    const priceField = screen.getByLabelText('Price (USD)');
    const minimum = screen.getByLabelText('Minimum offer (USD)');
    await user.clear(priceField);
    await user.type(priceField, '150.00');
    await user.clear(minimum);
    await user.type(minimum, '175.00');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(priceField).toBeInvalid(), {
      timeout: 10_000,
    });
    expect(fieldError(priceField)).toContain('must be at least the minimum offer sent with it');
    expect(minimum).toBeInvalid();
    expect(fieldError(minimum)).toContain('must be at most the price');
  });
});

describe('saving', () => {
  it('sends only the changed price and shows the listing with it', async () => {
    const { user, router } = await openEdit();
    const price = screen.getByLabelText('Price (USD)');
    // A new price within 3 times the last: saved without a question.
    const next = (Number(listing.variants[0]!.price) * 1.5 + 0.77).toFixed(2);
    await user.clear(price);
    await user.type(price, next);
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/listings/${listing.id}`), {
      timeout: 10_000,
    });
    expect(await screen.findByText('Saved.')).toBeTruthy();
    const terms = await screen.findByRole('region', { name: 'Sale terms' });
    await waitFor(() =>
      expect(
        within(terms).getByText(
          `$${Number(next).toLocaleString('en-US', { minimumFractionDigits: 2 })}`,
        ),
      ).toBeInTheDocument(),
    );
    const stored = await withFullShapes(harness, () =>
      harness.api(`/products/${listing.id}.json`, { token }),
    );
    const body = (await stored.json()) as { product: DemoProduct };
    expect(body.product.variants[0]!.price).toBe(next);
    expect(body.product.title).toBe(listing.title);
  });

  it('a term the API does not show is a "set to" choice, and the page says what was set here', async () => {
    const { form, user, router } = await openEdit();
    if (!DOCUMENTED_ONLY) {
      // The server shows the term: a checkbox holding its current value.
      const trades = within(form).getByRole('checkbox', { name: 'Accept trades' });
      expect((trades as HTMLInputElement).checked).toBe(false);
      return;
    }
    const trades = within(form).getByRole('combobox', { name: 'Accept trades' });
    expect((trades as HTMLSelectElement).value).toBe('');
    expect(within(trades).getByRole('option', { name: 'Leave as it is' })).toBeInTheDocument();
    await user.selectOptions(trades, 'Set to yes');
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/listings/${listing.id}`), {
      timeout: 10_000,
    });
    const terms = await screen.findByRole('region', { name: 'Sale terms' });
    // Not shown as the current value: labelled as what this browser set, with its date.
    const tradesValue = within(terms).getByText('Trades').nextElementSibling as HTMLElement;
    expect(tradesValue.textContent).toMatch(
      /^Not shown by the API · last set here to Accepted, on /,
    );
    const stored = await withFullShapes(harness, () =>
      harness.api(`/products/${listing.id}.json`, { token }),
    );
    const body = (await stored.json()) as { product: { svc_accepts_trades: boolean } };
    expect(body.product.svc_accepts_trades).toBe(true);
  });

  it('asks before leaving with unsaved changes', async () => {
    const { user, router } = await openEdit();
    await user.type(screen.getByLabelText('Title'), ' (edited)');
    await user.click(screen.getByRole('link', { name: 'Cancel' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    await user.click(within(dialog).getByRole('button', { name: 'Stay on this page' }));
    expect(router.state.location.pathname).toBe(`/listings/${listing.id}/edit`);
    await user.click(screen.getByRole('link', { name: 'Cancel' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', {
        name: 'Leave and lose changes',
      }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe(`/listings/${listing.id}`));
  });
});

describe('a price far from the last asks once', () => {
  it('a 10× price asks: after no nothing is sent, after yes it is saved', async () => {
    const other = await findProduct(
      harness,
      token,
      (p) =>
        p.id !== listing.id &&
        p.status === 'active' &&
        !p.svc_is_lot &&
        Number(p.variants[0]!.price) * 10 <= 1_000_000,
    );
    const stored = async () => {
      const response = await withFullShapes(harness, () =>
        harness.api(`/products/${other.id}.json`, { token }),
      );
      return ((await response.json()) as { product: DemoProduct }).product.variants[0]!.price;
    };
    const before = other.variants[0]!.price;
    const tenfold = (Number(before) * 10).toFixed(2);
    const view = renderApp(`/listings/${other.id}/edit`, { baseUrl: harness.url, token });
    await screen.findByRole('form', { name: 'Edit listing' }, { timeout: 10_000 });
    const user = userEvent.setup();
    const price = screen.getByLabelText('Price (USD)');
    await user.clear(price);
    await user.type(price, tenfold);
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    const usd = (amount: string) =>
      Number(amount).toLocaleString('en-US', { style: 'currency', currency: 'USD' });
    const ask = await screen.findByRole('dialog', { name: 'Save this price?' });
    expect(ask).toHaveTextContent(`${usd(tenfold)} is 10 times ${usd(before)}, its price now.`);
    await user.click(within(ask).getByRole('button', { name: "Don't save" }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(view.router.state.location.pathname).toBe(`/listings/${other.id}/edit`);
    expect(await stored()).toBe(before);

    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Save this price?' })).getByRole('button', {
        name: 'Save it',
      }),
    );
    await waitFor(() => expect(view.router.state.location.pathname).toBe(`/listings/${other.id}`), {
      timeout: 10_000,
    });
    expect(screen.queryByRole('dialog', { name: 'Save this price?' })).toBeNull();
    expect(await stored()).toBe(tenfold);
  });
});
