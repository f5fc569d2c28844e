// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DEMO_LIVE_TOKEN } from '../../src/sandbox';
import { useDemoSandbox } from '../ui/support/demo';
import { renderApp } from '../ui/support/render-app';
import { formatMoney } from '../../src/lib/format';

interface DemoProduct {
  id: string;
  title: string;
  status: string;
  svc_is_lot: boolean;
  svc_unavailable_reason: string | null;
  variants: { price: string }[];
}

// The real bucket: live 40 at once, then 2 a second.
const sandbox = useDemoSandbox<DemoProduct>({ demoListings: 200, rateLimit: true });

const active = () =>
  sandbox.products.filter(
    (p) => p.status === 'active' && !p.svc_is_lot && Number(p.variants[0]!.price) >= 12,
  );

async function open(ids: string[]) {
  const view = renderApp(`/listings/bulk-edit?ids=${ids.join(',')}`, {
    baseUrl: sandbox.harness.url,
    token: DEMO_LIVE_TOKEN,
  });
  await screen.findByRole(
    'table',
    { name: `Bulk edit grid, ${ids.length} listings` },
    // The first page of a file waits for its hub's first fill, through the bucket: slow when busy.
    { timeout: 40_000 },
  );
  return { ...view, user: userEvent.setup() };
}

/** One listing as the sandbox holds it (its ground truth: no key, no bucket to wait out). */
async function product(id: string): Promise<DemoProduct> {
  const { status, body } = await sandbox.harness.control<{ product: DemoProduct }>(
    'GET',
    `/listings/${id}`,
  );
  expect(status).toBe(200);
  return body.product;
}

/** Fills the demo key's bucket so the run goes at 2 writes a second. */
async function fillBucket() {
  await Promise.all(
    Array.from({ length: 40 }, () =>
      sandbox.harness.api('/ping', { token: DEMO_LIVE_TOKEN }).then((r) => r.text()),
    ),
  );
}

/** Raises the editor's prices by `dollars`, previews, and applies through a full bucket. */
async function raiseAndApply(
  user: ReturnType<typeof userEvent.setup>,
  dollars: string,
  count: number,
) {
  await user.selectOptions(screen.getByLabelText('Price change'), 'raise-amount');
  await user.type(screen.getByLabelText('Amount (USD)'), dollars);
  await user.click(screen.getByRole('button', { name: 'Apply price change' }));
  await user.click(screen.getByRole('button', { name: 'Preview changes' }));
  const preview = await screen.findByRole('region', { name: 'Preview' });
  await fillBucket();
  await user.click(within(preview).getByRole('button', { name: `Apply ${count} changes` }));
  await screen.findByRole('heading', { name: /^Applying:/ });
}

describe('CSV import in the editor', () => {
  it('puts good rows into the grid as one undoable step and names every bad cell', async () => {
    const [a, b, c] = active();
    const { user } = await open([a!.id, b!.id, c!.id]);
    const sold = sandbox.products.find((p) => p.svc_unavailable_reason === 'sold')!;
    const csv = [
      'id,price,accepts_trades,title',
      `${a!.id},"$1,234.50",yes,"=Formula, ""quoted"""`,
      `${b!.id},9.99,maybe,ok`,
      `${sold.id},20,no,x`,
      `nope,20,no,x`,
    ].join('\r\n');
    const file = new File([csv], 'prices.csv', { type: 'text/csv' });
    await user.upload(screen.getByLabelText('Import a CSV of listing ids with new values'), file);
    const report = await screen.findByText(/^Imported 1 rows?/);
    expect(report.textContent).toMatch(/3 cells? changed; 3 bad cells?, 1 rows? left out/);
    const bad = within(screen.getByRole('list', { name: 'Bad cells' })).getAllByRole('listitem');
    expect(bad.map((li) => li.textContent)).toEqual([
      'Row 3, column price: must be at least 10.00',
      'Row 3, column accepts_trades: must be yes or no',
      'Row 5, column id: no listing nope in the catalogue',
    ]);
    expect(
      within(screen.getByRole('list', { name: 'Left out' })).getByRole('listitem').textContent,
    ).toMatch(/^Row 4 .*sold: a sold listing cannot be changed$/);
    const price = screen.getByRole('textbox', { name: 'Price, row 1' }) as HTMLInputElement;
    expect(price.value).toBe('1234.50');
    expect((screen.getByRole('textbox', { name: 'Title, row 1' }) as HTMLInputElement).value).toBe(
      '=Formula, "quoted"',
    );
    expect(
      (screen.getByRole('checkbox', { name: 'Trades, row 1' }) as HTMLInputElement).checked,
    ).toBe(true);
    expect((screen.getByRole('textbox', { name: 'Price, row 2' }) as HTMLInputElement).value).toBe(
      b!.variants[0]!.price,
    );
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(price.value).toBe(a!.variants[0]!.price);
  });
});

describe('pause, resume and cancel', () => {
  it('pauses a run paced by the bucket, resumes it to the end, and the bar says so', async () => {
    const rows = active().slice(0, 8);
    const { user } = await open(rows.map((r) => r.id));
    await user.selectOptions(screen.getByLabelText('Price change'), 'raise-amount');
    await user.type(screen.getByLabelText('Amount (USD)'), '1');
    await user.click(screen.getByRole('button', { name: 'Apply price change' }));
    await user.click(screen.getByRole('button', { name: 'Preview changes' }));
    const preview = await screen.findByRole('region', { name: 'Preview' });
    await fillBucket();
    await user.click(within(preview).getByRole('button', { name: 'Apply 8 changes' }));
    const status = () => document.querySelector('.bulk-progress-text')!.textContent ?? '';
    await waitFor(() => expect(status()).toMatch(/^[1-9] of 8 saved/), { timeout: 15_000 });
    // The time left in a seller's words, never a rate of writes.
    expect(status()).toMatch(/ · (less than a minute|about \d+ minutes?) left$/);
    await user.click(screen.getByRole('button', { name: 'Pause' }));
    await screen.findByRole('heading', { name: /^Paused:/ }, { timeout: 15_000 });
    const paused = status();
    const done = Number(/^(\d+) of 8 saved/.exec(paused)?.[1]);
    expect(done).toBeLessThan(8);
    // Paused means paused: the run waited for its writes in flight, so the sandbox holds exactly
    // the writes the page counts, and the page stays as it is.
    const landed = await Promise.all(rows.map((row) => product(row.id)));
    expect(
      landed.filter((p, i) => p.variants[0]!.price !== rows[i]!.variants[0]!.price),
    ).toHaveLength(done);
    expect(status()).toBe(paused);
    await user.click(screen.getByRole('button', { name: 'Resume' }));
    await screen.findByRole('heading', { name: /^Finished:/ }, { timeout: 20_000 });
    expect(status()).toBe('8 of 8 saved');
    const bar = screen.getByLabelText('Progress');
    expect(bar).toHaveAttribute('value', '8');
    expect(bar).toHaveAttribute('max', '8');
  });

  it('cancels: what was not sent stays unsent and the listing keeps its price', async () => {
    const rows = active().slice(10, 20);
    const { user } = await open(rows.map((r) => r.id));
    await user.selectOptions(screen.getByLabelText('Price change'), 'raise-amount');
    await user.type(screen.getByLabelText('Amount (USD)'), '2');
    await user.click(screen.getByRole('button', { name: 'Apply price change' }));
    await user.click(screen.getByRole('button', { name: 'Preview changes' }));
    const preview = await screen.findByRole('region', { name: 'Preview' });
    await fillBucket();
    await user.click(within(preview).getByRole('button', { name: 'Apply 10 changes' }));
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    await screen.findByRole('heading', { name: /^Cancelled:/ }, { timeout: 15_000 });
    const text = document.querySelector('.bulk-progress-text')!.textContent ?? '';
    const remaining = Number(/(\d+) not sent yet/.exec(text)?.[1]);
    expect(remaining).toBeGreaterThan(0);
    expect(
      screen.getByText(new RegExp(`Cancelled: ${remaining} rows? were not sent`)),
    ).toBeTruthy();
    const last = rows[rows.length - 1]!;
    expect((await product(last.id)).variants[0]!.price).toBe(last.variants[0]!.price);
  });

  it('keeps running when the seller leaves the editor, and shows the same run on return', async () => {
    const rows = active().slice(30, 36);
    const { user, router } = await open(rows.map((r) => r.id));
    await raiseAndApply(user, '3', 6);
    const back = `${router.state.location.pathname}${router.state.location.search}`;
    router.navigate('/listings');
    // Bounds for a machine with every core busy (two CPU hogs beside the suite): each wait ends
    // as soon as the page shows its state.
    await screen.findByRole('heading', { name: 'Listings', level: 1 }, { timeout: 30_000 });
    router.navigate(back);
    // The same run, not a second one, and not an offer to resume it. (The catalogue is read again
    // through the bucket the run is using: on a busy machine that takes a while.)
    await screen.findByRole('heading', { name: /^(Applying|Finished):/ }, { timeout: 60_000 });
    expect(screen.queryByRole('region', { name: 'Unfinished bulk edit' })).toBeNull();
    await screen.findByRole('heading', { name: /^Finished:/ }, { timeout: 30_000 });
    expect(document.querySelector('.bulk-progress-text')!.textContent).toBe('6 of 6 saved');
  }, 150_000);

  it('shows a run that ended while the seller was away as finished on return, until closed', async () => {
    const rows = active().slice(40, 44);
    const { user, router } = await open(rows.map((r) => r.id));
    await raiseAndApply(user, '2', 4);
    const back = `${router.state.location.pathname}${router.state.location.search}`;
    // Away until the seller reads every new price: the run has ended by then, unseen.
    for (const row of rows) {
      router.navigate(`/listings/${row.id}`);
      const raised = formatMoney((Number(row.variants[0]!.price) + 2).toFixed(2));
      await screen.findAllByText(raised, undefined, { timeout: 60_000 });
    }
    router.navigate(back);
    await screen.findByRole('heading', { name: /^Finished:/ }, { timeout: 60_000 });
    expect(document.querySelector('.bulk-progress-text')!.textContent).toBe('4 of 4 saved');
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await screen.findByRole('table', { name: 'Bulk edit grid, 4 listings' });
    // The second return: the run the seller saw and closed stays closed.
    router.navigate('/listings');
    await screen.findByRole('heading', { name: 'Listings', level: 1 }, { timeout: 30_000 });
    router.navigate(back);
    await screen.findByRole('table', { name: 'Bulk edit grid, 4 listings' }, { timeout: 60_000 });
    expect(screen.queryByRole('heading', { name: /^(Applying|Finished):/ })).toBeNull();
  }, 180_000);
});
