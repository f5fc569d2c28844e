// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { adjustPrice, withEnding } from '../../src/shared/price-math';
import { DEMO_LIVE_TOKEN } from '../../src/sandbox';
import { useDemoSandbox } from '../ui/support/demo';
import { renderApp } from '../ui/support/render-app';

/** The bulk editor's rough edges a new seller met, each shown fixed against a real sandbox. */
const sandbox = useDemoSandbox({ demoListings: 120 });
let ids: string[];

beforeAll(async () => {
  const response = await sandbox.harness.api('/listings.json?limit=250', {
    token: DEMO_LIVE_TOKEN,
  });
  const { listings } = (await response.json()) as {
    listings: { id: string; status: string; is_lot: boolean; price: string }[];
  };
  ids = listings
    .filter((l) => l.status === 'active' && !l.is_lot && Number(l.price) >= 20)
    .slice(0, 4)
    .map((l) => l.id);
  expect(ids).toHaveLength(4);
});

async function openGrid() {
  const view = renderApp(`/listings/bulk-edit?ids=${ids.join(',')}`, {
    baseUrl: sandbox.harness.url,
    token: DEMO_LIVE_TOKEN,
  });
  await screen.findByRole('table', { name: /Bulk edit grid, 4 listings/ }, { timeout: 15_000 });
  return { ...view, user: userEvent.setup() };
}

const cell = (name: string) => screen.getByRole('textbox', { name }) as HTMLInputElement;

describe('price endings', () => {
  it('rounds to whole dollars or to a .99 ending, exactly, and keeps the bounds', () => {
    const lowered = adjustPrice(12_999n, {
      kind: 'percent',
      direction: 'lower',
      hundredths: 1000n,
    });
    expect(lowered.cents).toBe(11_699n); // 116.991 → 116.99
    expect(withEnding(lowered, 'whole').cents).toBe(11_700n);
    expect(withEnding(lowered, '99').cents).toBe(11_699n);
    const low = adjustPrice(1_060n, { kind: 'percent', direction: 'lower', hundredths: 500n });
    expect(withEnding(low, '99').cents).toBe(999n);
    expect(withEnding(low, '99').error).toMatch(/at least 10/);
    expect(withEnding(lowered, 'cent')).toBe(lowered);
  });

  it('the price action offers the ending, and the grid shows it', async () => {
    const { user } = await openGrid();
    await user.selectOptions(screen.getByLabelText('Price change'), 'lower-percent');
    await user.type(screen.getByLabelText('Percent (%)'), '10');
    await user.selectOptions(screen.getByLabelText('Round the new prices'), 'Ending in .99');
    await user.click(screen.getByRole('button', { name: 'Apply price change' }));
    for (let row = 1; row <= 4; row++) {
      expect(cell(`Price, row ${row}`).value).toMatch(/\.99$/);
    }
  });
});

describe('the editor', () => {
  it('puts the bulk actions before the grid, and speaks of windows in days', async () => {
    await openGrid();
    const actions = screen.getByRole('region', { name: 'Bulk actions' });
    const grid = screen.getByRole('table', { name: /Bulk edit grid/ });
    expect(actions.compareDocumentPosition(grid) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const duration = screen.getByRole('combobox', { name: 'Duration, row 1' });
    expect(
      within(duration)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toContain('7 days');
    expect(duration.textContent).not.toMatch(/\d h\b/);
  });

  it('names a bad row by its card, shows the whole message, and still applies the others', async () => {
    const { user } = await openGrid();
    const title = cell('Title, row 2').value;
    await user.clear(cell('Price, row 2'));
    await user.type(cell('Price, row 2'), '5');
    // A raise keeps row 1 valid whatever its minimum offer.
    const raised = (Number(cell('Price, row 1').value) + 1).toFixed(2);
    await user.clear(cell('Price, row 1'));
    await user.type(cell('Price, row 1'), raised);
    const error = document.getElementById(
      cell('Price, row 2').getAttribute('aria-describedby')!.split(' ')[0]!,
    )!;
    expect(error.getAttribute('title')).toBe(error.textContent);
    await user.click(screen.getByRole('button', { name: 'Preview changes' }));
    const preview = await screen.findByRole('region', { name: 'Preview' });
    const alert = within(preview).getByRole('alert');
    expect(alert.textContent).toContain(title);
    expect(alert.textContent).not.toContain(ids[1]!);
    const apply = within(preview).getByRole('button', { name: /^Apply 1 changes?/ });
    expect((apply as HTMLButtonElement).disabled).toBe(false);
    expect(apply.textContent).toMatch(/leaving out 1 rows? to fix/);
  });

  it('offers to export what is in the editor, not "all 120 matching", for a chosen few', async () => {
    await openGrid();
    const csv = screen.getByRole('region', { name: 'CSV' });
    expect(within(csv).getByRole('button', { name: 'Export the 4 listings in the editor' }));
    expect(within(csv).queryByRole('button', { name: /matching the filters/ })).toBeNull();
  });
});

describe('the editor from filters', () => {
  it('offers the matching export only when it holds more than the editor', async () => {
    renderApp('/listings/bulk-edit?status=archived', {
      baseUrl: sandbox.harness.url,
      token: DEMO_LIVE_TOKEN,
    });
    const csv = await screen.findByRole('region', { name: 'CSV' }, { timeout: 15_000 });
    await waitFor(() =>
      expect(
        within(csv).getByRole('button', { name: /Export all \d+ matching the filters/ }),
      ).toBeTruthy(),
    );
  });
});
