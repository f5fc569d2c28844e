// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { findProduct, useDemoSandbox } from './support/demo';
import { renderApp } from './support/render-app';

/**
 * Refresh tells the truth: after a sale made with no webhook to say so, Refresh shows the
 * listing sold, as a reload does (the documented list view does not say why a listing is off
 * the marketplace: the inventory levels do, and Refresh reads them again).
 */
const demo = useDemoSandbox();

const summary = () => screen.getByText(/of \d+ listings/, { selector: '.table-summary' });

describe('Refresh after a sale', () => {
  it.each(['full', 'documented'] as const)(
    'shows the sold listing as sold, not as archived (%s views)',
    async (shapes) => {
      const target = await findProduct(
        demo.harness,
        demo.token,
        (p) => p.status === 'active' && !p.svc_is_lot,
      );
      demo.harness.sandbox.context.shapes = shapes;
      renderApp(`/listings?q=${encodeURIComponent(target.svc_card.cert_number)}`, {
        baseUrl: demo.harness.url,
        token: demo.token,
      });
      await waitFor(() => expect(summary()).toHaveTextContent(/^1 of \d+ listings/), {
        timeout: 15_000,
      });
      const table = screen.getByRole('table', { name: 'Listings' });
      const row = () => within(table).getAllByRole('row')[1]!;
      await waitFor(() => expect(row()).toHaveTextContent(/active/i));
      // Refresh is offered once the catalogue is whole (it is disabled while the walk runs), as
      // a seller sees it: under load the first rows show before the walk ends.
      const refresh = screen.getByRole('button', { name: 'Refresh' });
      await waitFor(() => expect(refresh).toBeEnabled(), { timeout: 15_000 });

      const sale = await demo.harness.control('POST', `/listings/${target.id}/sell`, {});
      expect(sale.status).toBe(200);
      await userEvent.setup().click(refresh);
      await waitFor(() => expect(row()).toHaveTextContent(/sold/i), { timeout: 10_000 });
      expect(row()).not.toHaveTextContent(/archived/i);
    },
    30_000,
  );
});
