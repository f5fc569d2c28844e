// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DEMO_LIVE_TOKEN } from '../../src/sandbox';
import { useDemoSandbox } from '../ui/support/demo';
import { renderApp } from '../ui/support/render-app';

interface DemoProduct {
  id: string;
  title: string;
  status: string;
  svc_unavailable_reason: string | null;
  svc_card: { player: string | null };
}

const sandbox = useDemoSandbox<DemoProduct>({ demoListings: 200 });

async function openListings(path = '/listings') {
  const view = renderApp(path, { baseUrl: sandbox.harness.url, token: DEMO_LIVE_TOKEN });
  // The whole catalogue: its pages land one a task, so the summary may show before the last.
  await waitFor(
    () => {
      expect(screen.getByText(/of 200 listings/)).toBeInTheDocument();
      expect(screen.queryByRole('progressbar', { name: 'Loading the catalogue' })).toBeNull();
    },
    // Bounds for a machine with every core busy: each wait ends when the page shows its state.
    { timeout: 60_000 },
  );
  return { ...view, user: userEvent.setup() };
}

describe('choosing rows for a bulk edit', () => {
  it('selects one row, then a range with shift-click, and hands the selection over', async () => {
    const { user, router } = await openListings('/listings?status=active');
    const table = screen.getByRole('table', { name: 'Listings' });
    const boxes = within(table).getAllByRole('checkbox', { name: /^Select (?!all)/ });
    await user.click(boxes[0]!);
    await user.keyboard('{Shift>}');
    await user.click(boxes[3]!);
    await user.keyboard('{/Shift}');
    expect(boxes.slice(0, 4).every((b) => (b as HTMLInputElement).checked)).toBe(true);
    expect((boxes[4] as HTMLInputElement).checked).toBe(false);
    await user.click(screen.getByRole('link', { name: 'Bulk edit the selection (4)' }));
    await screen.findByRole('table', { name: 'Bulk edit grid, 4 listings' }, { timeout: 60_000 });
    expect(router.state.location.pathname).toBe('/listings/bulk-edit');
    expect(router.state.location.search).toMatch(/^\?ids=/);
  }, 150_000);

  it('takes all rows matching the filters, not only those in view, and leaves sold ones out', async () => {
    const player = sandbox.products.find(
      (p) =>
        p.svc_card.player &&
        sandbox.products.some(
          (q) => q.svc_card.player === p.svc_card.player && q.svc_unavailable_reason === 'sold',
        ),
    )?.svc_card.player;
    expect(player).toBeTruthy();
    const all = sandbox.products.filter((p) => p.svc_card.player === player);
    const sold = all.filter((p) => p.svc_unavailable_reason === 'sold');
    const { user } = await openListings(`/listings?q=${encodeURIComponent(player!)}`);
    const shown = Number(
      /^(\d+) of/.exec(screen.getByText(/of 200 listings/).textContent ?? '')?.[1],
    );
    expect(shown).toBeGreaterThanOrEqual(all.length);
    await user.click(screen.getByRole('link', { name: `Bulk edit all ${shown} matching` }));
    const editing = await screen.findByText(/^Editing \d+ listing/, undefined, { timeout: 60_000 });
    const inGrid = Number(/^Editing (\d+)/.exec(editing.textContent ?? '')?.[1]);
    const summary = screen.getByText(/listings? left out/);
    const leftOut = Number(/^(\d+)/.exec(summary.textContent ?? '')?.[1]);
    expect(inGrid + leftOut).toBe(shown);
    expect(
      screen.getByRole('table', { name: `Bulk edit grid, ${inGrid} listings` }),
    ).toBeInTheDocument();
    const reasons = within(summary.closest('details')!).getAllByRole('listitem');
    expect(reasons).toHaveLength(leftOut);
    for (const listing of sold) {
      expect(reasons.some((li) => li.textContent?.includes(`(${listing.id}): sold`))).toBe(true);
    }
    expect(
      reasons.every((li) => /: sold: a sold listing cannot be changed$/.test(li.textContent ?? '')),
    ).toBe(true);
  }, 150_000);
});
