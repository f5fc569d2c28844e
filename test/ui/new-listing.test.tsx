// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_UNLISTED_CERTS } from '../../src/sandbox';
import type { Harness } from '../support/sandbox-harness';
import { startDemo } from './support/demo';
import { renderApp } from './support/render-app';

let harness: Harness;
let token: string;

beforeAll(async () => {
  ({ harness, token } = await startDemo());
});
afterEach(() => cleanup());
afterAll(() => harness?.close());

async function openNew(path = '/listings/new') {
  // These tests are about what each create does at once: "check the card first" (on by default,
  // test/ui/safe-defaults.test.tsx) is turned off the way a seller would, remembered.
  localStorage.setItem('slabdesk.new-listing.review.v1', 'off');
  const view = renderApp(path, { baseUrl: harness.url, token });
  await screen.findByRole('form', { name: 'New listing' }, { timeout: 10_000 });
  return { ...view, user: userEvent.setup() };
}

const errorOf = (input: HTMLElement) =>
  (input.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id))
    .filter((el) => el?.classList.contains('field-error'))
    .map((el) => el!.textContent)
    .join(' ');

const submit = (user: ReturnType<typeof userEvent.setup>) =>
  user.click(screen.getByRole('button', { name: /Create listing|Retry/ }));

/** How many listings name the cert, read from the documented list view (`card.cert_number`). */
async function listingsWithCert(cert: string): Promise<number> {
  const response = await harness.api('/listings.json?limit=250', { token });
  const body = (await response.json()) as { listings: { card: { cert_number: string } }[] };
  let count = body.listings.filter((p) => p.card.cert_number === cert).length;
  let next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
  while (next) {
    const page = await harness.api(next, { token });
    const pageBody = (await page.json()) as typeof body;
    count += pageBody.listings.filter((p) => p.card.cert_number === cert).length;
    next = /<([^>]+)>;\s*rel="next"/.exec(page.headers.get('link') ?? '')?.[1];
  }
  return count;
}

describe('form rules before sending', () => {
  it('needs a cert number and a price', async () => {
    const { user } = await openNew();
    await submit(user);
    await waitFor(() =>
      expect(errorOf(screen.getByLabelText('Cert number'))).toContain('Enter the cert number'),
    );
    expect(errorOf(screen.getByLabelText('Price (USD)'))).toContain('Enter a price');
  });

  it('checks price bounds, title and description lengths', async () => {
    const { user } = await openNew();
    await user.type(screen.getByLabelText('Cert number'), '84512001');
    await user.type(screen.getByLabelText('Price (USD)'), '1000001');
    await user.click(screen.getByLabelText('Title'));
    await user.paste('t'.repeat(181));
    await user.click(screen.getByLabelText('Description'));
    await user.paste('d'.repeat(1001));
    await submit(user);
    await waitFor(() =>
      expect(errorOf(screen.getByLabelText('Price (USD)'))).toContain('$10 to $1,000,000'),
    );
    expect(errorOf(screen.getByLabelText('Title'))).toContain('At most 180');
    expect(errorOf(screen.getByLabelText('Description'))).toContain('At most 1000');
  });

  it('takes at most 5 photos, https only, and previews them', async () => {
    const { user } = await openNew();
    for (let i = 0; i < 5; i++)
      await user.click(screen.getByRole('button', { name: 'Add a photo' }));
    expect(screen.queryByRole('button', { name: 'Add a photo' })).toBeNull();
    await user.type(screen.getByLabelText('Photo 1 URL'), 'http://example.com/a.jpg');
    await user.type(screen.getByLabelText('Photo 2 URL'), 'https://img.example.com/b.jpg');
    expect(screen.getByRole('img', { name: 'Preview of photo 2' }).getAttribute('src')).toBe(
      'https://img.example.com/b.jpg',
    );
    await submit(user);
    await waitFor(() =>
      expect(errorOf(screen.getByLabelText('Photo 1 URL'))).toContain('https://'),
    );
  });

  it('card details need a title, the grader and a photo', async () => {
    const { user } = await openNew();
    await user.type(screen.getByLabelText('Cert number'), '55550001');
    await user.type(screen.getByLabelText('Price (USD)'), '50');
    await user.click(screen.getByLabelText('Send card details as a fallback'));
    await submit(user);
    await waitFor(() => expect(errorOf(screen.getByLabelText('Card title'))).toContain('required'));
    expect(errorOf(screen.getByLabelText('Grader'))).toContain('Choose the grader');
    expect(screen.getByText('Add at least one photo when giving card details')).toBeInTheDocument();
  });

  it('warns that promotion is one-way with a 3% fee', async () => {
    const { user } = await openNew();
    await user.click(screen.getByLabelText('Promote this listing'));
    expect(screen.getByText(/cannot be undone and adds a 3% seller fee/)).toBeInTheDocument();
  });
});

describe('creating against the sandbox', () => {
  it('a cert and a price are enough: a PSA cert goes live now', async () => {
    const cert = DEMO_UNLISTED_CERTS.find((c) => c.grader === 'PSA')!;
    const { user } = await openNew();
    await user.type(screen.getByLabelText('Cert number'), cert.cert_number);
    await user.type(screen.getByLabelText('Price (USD)'), '250.00');
    await submit(user);
    const outcome = await screen.findByRole(
      'heading',
      { name: 'Listing created' },
      { timeout: 10_000 },
    );
    expect(outcome).toBeTruthy();
    await waitFor(() => expect(screen.getByText(/Live now/)).toBeInTheDocument());
    expect(await listingsWithCert(cert.cert_number)).toBe(1);
  });

  it('an SGC cert is explained as pending review', async () => {
    const cert = DEMO_UNLISTED_CERTS.find((c) => c.grader === 'SGC')!;
    const { user } = await openNew();
    await user.type(screen.getByLabelText('Cert number'), cert.cert_number);
    await user.type(screen.getByLabelText('Price (USD)'), '99.50');
    await submit(user);
    await screen.findByRole('heading', { name: 'Listing created' }, { timeout: 10_000 });
    await waitFor(() => expect(screen.getByText(/Pending review/)).toBeInTheDocument());
  });

  it('a future go-live time is explained as scheduled', async () => {
    const cert = DEMO_UNLISTED_CERTS.find((c) => c.grader === 'BGS')!;
    const { user } = await openNew();
    await user.type(screen.getByLabelText('Cert number'), cert.cert_number);
    await user.type(screen.getByLabelText('Price (USD)'), '120');
    const at = new Date(Date.now() + 3 * 86_400_000);
    const local = new Date(at.getTime() - at.getTimezoneOffset() * 60_000)
      .toISOString()
      .slice(0, 16);
    await user.type(screen.getByLabelText('Go live at (optional)'), local);
    await submit(user);
    await screen.findByRole('heading', { name: 'Listing created' }, { timeout: 10_000 });
    await waitFor(() => expect(screen.getByText(/Scheduled: it goes live/)).toBeInTheDocument());
  });

  it('cert not found: the error is on the cert field and the card details open; with them it is created for review', async () => {
    const { user } = await openNew();
    await user.type(screen.getByLabelText('Cert number'), '99887766');
    await user.type(screen.getByLabelText('Price (USD)'), '40');
    await submit(user);
    await waitFor(
      () =>
        expect(errorOf(screen.getByLabelText('Cert number'))).toContain(
          'No grader recognises this cert',
        ),
      {
        timeout: 10_000,
      },
    );
    expect(screen.getByText(/The cert was not found/)).toBeInTheDocument();
    await user.type(screen.getByLabelText('Card title'), '1999 Test Set Someone #1 PSA 9');
    await user.selectOptions(screen.getByLabelText('Grader'), 'PSA');
    await user.click(screen.getByRole('button', { name: 'Add a photo' }));
    await user.type(screen.getByLabelText('Photo 1 URL'), 'https://img.example.com/front.jpg');
    await submit(user);
    await screen.findByRole('heading', { name: 'Listing created' }, { timeout: 10_000 });
    await waitFor(() => expect(screen.getByText(/Pending review/)).toBeInTheDocument());
  });

  it('an unreachable photo: the server’s 422 lands on the photos', async () => {
    const { user } = await openNew();
    await user.type(screen.getByLabelText('Cert number'), DEMO_UNLISTED_CERTS[5]!.cert_number);
    await user.type(screen.getByLabelText('Price (USD)'), '40');
    await user.click(screen.getByRole('button', { name: 'Add a photo' }));
    await user.type(screen.getByLabelText('Photo 1 URL'), 'https://photos.invalid/front.jpg');
    await submit(user);
    const fieldset = screen.getByRole('group', { name: /Photos/ });
    await waitFor(
      () => expect(within(fieldset).getByRole('alert').textContent).toMatch(/photos\.invalid/),
      {
        timeout: 10_000,
      },
    );
  });

  it('503 cert_lookup_unavailable: explained, and the retry with the same key creates it once', async () => {
    const cert = DEMO_UNLISTED_CERTS.find((c) => c.grader === 'CGC')!;
    await harness.control('PUT', '/faults', { cert_lookup: 'unavailable' });
    const { user } = await openNew();
    await user.type(screen.getByLabelText('Cert number'), cert.cert_number);
    await user.type(screen.getByLabelText('Price (USD)'), '300');
    await submit(user);
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(alert.textContent).toContain('cert_lookup_unavailable');
    expect(alert.textContent).toMatch(/Request id/);
    expect(screen.getAllByText(/same Idempotency-Key/).length).toBeGreaterThan(0);
    await harness.control('PUT', '/faults', { cert_lookup: 'ok' });
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByRole('heading', { name: 'Listing created' }, { timeout: 10_000 });
    expect(await listingsWithCert(cert.cert_number)).toBe(1);
  });

  it('prefilled from inventory by inventory_item_id: lists a card that was never listed', async () => {
    const levels = await harness.api('/inventory_levels.json?limit=250', { token });
    const body = (await levels.json()) as {
      inventory_levels: { inventory_item_id: string; svc_unavailable_reason: string | null }[];
    };
    const unlisted = body.inventory_levels.find((l) => l.svc_unavailable_reason === 'not_listed');
    expect(unlisted).toBeDefined();
    const { user } = await openNew(
      `/listings/new?inventory_item_id=${unlisted!.inventory_item_id}`,
    );
    expect(screen.getByText(/from your inventory/).textContent).toContain(
      unlisted!.inventory_item_id,
    );
    expect(screen.queryByLabelText('Cert number')).toBeNull();
    await user.type(screen.getByLabelText('Price (USD)'), '40');
    await submit(user);
    await screen.findByRole('heading', { name: 'Listing created' }, { timeout: 10_000 });
    await waitFor(() => expect(screen.getByText(/Live now/)).toBeInTheDocument());
  });
});
