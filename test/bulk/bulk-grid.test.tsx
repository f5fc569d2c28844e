// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LIVE_TOKEN } from '../../src/sandbox';
import { withFullShapes } from '../support/test-shapes';
import { useDemoSandbox } from '../ui/support/demo';
import { renderApp } from '../ui/support/render-app';
import { formatDollars } from '../../src/shared/money';

interface DemoProduct {
  id: string;
  status: string;
  svc_is_lot: boolean;
  svc_minimum_offer: string | null;
  svc_accepts_trades: boolean;
  variants: { price: string }[];
}

const sandbox = useDemoSandbox<DemoProduct>({ demoListings: 120 });
let picked: DemoProduct[];

beforeAll(() => {
  picked = sandbox.products
    .filter(
      (p) =>
        p.status === 'active' &&
        !p.svc_is_lot &&
        p.svc_minimum_offer === null &&
        !p.svc_accepts_trades &&
        Number(p.variants[0]!.price) >= 20,
    )
    .slice(0, 5);
  expect(picked).toHaveLength(5);
});

async function openGrid(ids = picked.map((p) => p.id)) {
  const view = renderApp(`/listings/bulk-edit?ids=${ids.join(',')}`, {
    baseUrl: sandbox.harness.url,
    token: DEMO_LIVE_TOKEN,
  });
  await screen.findByRole('table', { name: /Bulk edit grid, 5 listings/ }, { timeout: 15_000 });
  return { ...view, user: userEvent.setup() };
}

const cell = (name: string) => screen.getByRole('textbox', { name }) as HTMLInputElement;
const focused = () => document.activeElement as HTMLElement | null;

describe('the bulk grid', () => {
  it('moves with arrows, Tab and Enter, edits by typing, marks changed and invalid cells', async () => {
    const { user } = await openGrid();
    await user.click(cell('Price, row 1'));
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(focused()?.getAttribute('aria-label')).toBe('Price, row 2'));
    // Reached from the keyboard, the text is selected: typing replaces it.
    await user.keyboard('5');
    expect(cell('Price, row 2').value).toBe('5');
    expect(cell('Price, row 2')).toBeInvalid();
    expect(cell('Price, row 2').closest('td')!.textContent).toContain('must be at least 10.00');
    await user.keyboard('0');
    expect(cell('Price, row 2').value).toBe('50');
    expect(cell('Price, row 2').getAttribute('aria-invalid')).toBeNull();
    expect(cell('Price, row 2').closest('td')!.className).toContain('is-changed');

    await user.keyboard('{Tab}');
    await waitFor(() => expect(focused()?.getAttribute('aria-label')).toBe('Minimum offer, row 2'));
    await user.keyboard('60');
    expect(cell('Minimum offer, row 2').closest('td')!.textContent).toContain(
      'must be at most the price',
    );
    await user.keyboard('{Escape}');
    expect(cell('Minimum offer, row 2').value).toBe('');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(focused()?.getAttribute('aria-label')).toBe('Minimum offer, row 3'));
    await user.keyboard('{Shift>}{Tab}{/Shift}');
    await waitFor(() => expect(focused()?.getAttribute('aria-label')).toBe('Price, row 3'));
    await user.keyboard('{ArrowLeft}');
    await waitFor(() => expect(focused()?.getAttribute('aria-label')).toBe('Title, row 3'));
  });

  it('pastes a block from a spreadsheet, then undoes and redoes it as one step', async () => {
    const { user } = await openGrid();
    const before = [1, 2, 3].map((n) => cell(`Price, row ${n}`).value);
    await user.click(cell('Price, row 1'));
    await user.paste('100\t80\n"$1,100.50"\t90\n12.345\tabc\n');
    expect(cell('Price, row 1').value).toBe('100.00');
    expect(cell('Minimum offer, row 1').value).toBe('80.00');
    expect(cell('Price, row 2').value).toBe('1100.50');
    expect(cell('Minimum offer, row 2').value).toBe('90.00');
    // Bad text is kept and marked, with the zod message, before anything is sent.
    expect(cell('Price, row 3').value).toBe('12.345');
    expect(cell('Price, row 3').closest('td')!.textContent).toContain('at most 2 decimals');
    expect(screen.getByText(/Pasted 6 changed cells? from row 1/)).toBeInTheDocument();

    await user.keyboard('{Control>}z{/Control}');
    expect([1, 2, 3].map((n) => cell(`Price, row ${n}`).value)).toEqual(before);
    expect(cell('Minimum offer, row 1').value).toBe('');
    await user.keyboard('{Control>}y{/Control}');
    expect(cell('Price, row 2').value).toBe('1100.50');
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(cell('Price, row 2').value).toBe(before[1]);
  });

  it('fills down a column and pastes one value into a selected range', async () => {
    const { user } = await openGrid();
    const trades = screen.getByRole('checkbox', { name: 'Trades, row 1' }) as HTMLInputElement;
    await user.click(trades);
    expect(trades.checked).toBe(true);
    await user.keyboard('{Control>}d{/Control}');
    for (const n of [2, 3, 4, 5]) {
      expect(
        (screen.getByRole('checkbox', { name: `Trades, row ${n}` }) as HTMLInputElement).checked,
      ).toBe(true);
    }
    await user.click(cell('Title, row 2'));
    await user.keyboard('{Shift>}{ArrowDown}{ArrowDown}{/Shift}');
    await user.paste('Same title');
    expect([2, 3, 4].map((n) => cell(`Title, row ${n}`).value)).toEqual([
      'Same title',
      'Same title',
      'Same title',
    ]);
    expect(cell('Title, row 5').value).not.toBe('Same title');
  });
});

describe('preview and apply', () => {
  it('lowers prices 10%, previews, applies with a failed row and a conflict, retries the failed', async () => {
    const { user, queryClient } = await openGrid();
    await user.selectOptions(screen.getByLabelText('Price change'), 'lower-percent');
    await user.type(screen.getByLabelText('Percent (%)'), '10');
    await user.click(screen.getByRole('button', { name: 'Apply price change' }));
    expect(screen.getByLabelText('Last action').textContent).toMatch(
      /Lower price by 10%: 5 cells? changed/,
    );
    const expected = picked.map((p) => {
      const cents = BigInt(p.variants[0]!.price.replace('.', ''));
      const lowered = (cents * 9000n * 2n + 10000n) / 20000n;
      return `${lowered / 100n}.${(lowered % 100n).toString().padStart(2, '0')}`;
    });
    expect(picked.map((_, i) => cell(`Price, row ${i + 1}`).value)).toEqual(expected);

    await user.click(screen.getByRole('button', { name: 'Preview changes' }));
    const preview = await screen.findByRole('region', { name: 'Preview' });
    expect(within(preview).getByText(/5 listings? change: 5 changes/)).toBeInTheDocument();
    const changes = within(preview).getByRole('table', { name: 'Changes to send' });
    // The preview writes money as the app does everywhere.
    const shown = formatDollars(BigInt(expected[0]!.replace('.', '')));
    expect(within(changes).getByText(shown)).toBeInTheDocument();

    // Meanwhile: one listing sells, and the seller loses write approval for a moment.
    const sold = picked[2]!.id;
    expect((await sandbox.harness.control('POST', `/listings/${sold}/sell`, {})).status).toBe(200);
    const demo = await sandbox.harness.control<{ demo: { seller_id: string } }>('GET', '/demo');
    await sandbox.harness.control('PATCH', `/sellers/${demo.body.demo.seller_id}`, {
      write_approved: false,
    });

    await user.click(within(preview).getByRole('button', { name: 'Apply 5 changes' }));
    const run = await screen.findByRole('region', { name: /Finished/ }, { timeout: 15_000 });
    expect(within(run).getByRole('status').textContent).toMatch(/^0 of 5 saved, 5 not saved$/);
    // The refusal in words; its code and request id behind "Details".
    expect(
      within(run).getAllByText(/^Failed: write approval: this seller is not approved/).length,
    ).toBe(5);
    const codes = [...run.querySelectorAll('details.error-details code')].map((c) => c.textContent);
    expect(codes.filter((code) => code === 'listing_write_forbidden').length).toBe(5);
    expect(codes.filter((code) => code?.startsWith('req_')).length).toBe(5);

    await sandbox.harness.control('PATCH', `/sellers/${demo.body.demo.seller_id}`, {
      write_approved: true,
    });
    await user.click(within(run).getByRole('button', { name: 'Retry 5 failed rows' }));
    await waitFor(
      () =>
        expect(within(run).getByRole('status').textContent).toMatch(
          /^4 of 5 saved, 1 sold or changed meanwhile$/,
        ),
      { timeout: 15_000 },
    );
    const conflict = run.querySelector(`[data-listing="${sold}"]`)!;
    expect(conflict.textContent).toMatch(
      /Conflict: the listing sold or changed meanwhile.*listing_write_conflict/,
    );
    expect(run.querySelector('progress')!.getAttribute('value')).toBe('5');

    // The cache was updated row by row: the catalogue shows the new prices without a reload.
    const catalogue = queryClient.getQueryData<{
      rows: { id: string; price: string }[];
    }>(['listings', 'list', 'catalogue'])!;
    const prices = new Map(catalogue.rows.map((p) => [p.id, p.price]));
    picked.forEach((p, i) => {
      if (p.id !== sold) expect(prices.get(p.id)).toBe(expected[i]);
    });
    // And the API agrees.
    const check = await withFullShapes(sandbox.harness, () =>
      sandbox.harness.api(`/products/${picked[0]!.id}.json`, { token: DEMO_LIVE_TOKEN }),
    );
    expect(((await check.json()) as { product: DemoProduct }).product.variants[0]!.price).toBe(
      expected[0],
    );
    fireEvent.click(within(run).getByRole('button', { name: 'Close' }));
  });
});
