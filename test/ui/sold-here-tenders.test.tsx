// @vitest-environment jsdom
import { zodResolver } from '@hookform/resolvers/zod';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import { afterEach, describe, expect, it } from 'vitest';
import {
  saleSchema,
  tenderBodies,
  type SaleValues,
} from '../../src/features/show/sold-here/sale-schema';
import { TenderFields } from '../../src/features/show/sold-here/tender-fields';
import type { TenderBody } from '../../src/api/shows/show-api';

/**
 * The Sold here form's tenders: the real fields and schema in a form of $250.00, as a seller
 * splits a sale at the table; what is left to take is said as the seller types.
 */

function SaleForm({ onSale }: { onSale(tenders: TenderBody[]): void }) {
  const form = useForm<SaleValues>({
    resolver: zodResolver(saleSchema),
    defaultValues: {
      showKey: 'show-key-1',
      price: '250.00',
      discount: '',
      tenders: ['cash'],
      cashAmount: '',
      cardAmount: '',
      otherAmount: '',
      otherNote: '',
      tradeTitle: '',
      tradeCert: '',
      tradeValue: '',
    },
  });
  return (
    <form
      aria-label="Sold here"
      noValidate
      onSubmit={(event) => void form.handleSubmit((values) => onSale(tenderBodies(values)))(event)}
    >
      <TenderFields form={form} />
      <button type="submit">Record the sale</button>
    </form>
  );
}

afterEach(cleanup);

describe('a split tender at the table', () => {
  it('says what is left to take as the seller types, and records only amounts adding up to the price', async () => {
    const user = userEvent.setup();
    const sales: TenderBody[][] = [];
    render(<SaleForm onSale={(tenders) => sales.push(tenders)} />);
    const paid = screen.getByRole('group', { name: /Paid with/ });
    // One way to pay: the whole price, no amount to type.
    expect(within(paid).getByRole('checkbox', { name: 'Cash' })).toBeChecked();
    expect(screen.queryByRole('textbox', { name: 'Cash ($)' })).toBeNull();

    await user.click(within(paid).getByRole('checkbox', { name: 'Card, on my reader' }));
    const cash = screen.getByRole('textbox', { name: 'Cash ($)' });
    const card = screen.getByRole('textbox', { name: 'Card ($)' });
    expect(screen.getByText('$250.00 left to take')).toBeInTheDocument();
    await user.type(cash, '100');
    expect(screen.getByText('$150.00 left to take')).toBeInTheDocument();
    await user.type(card, '160');
    expect(screen.getByText('$10.00 too much')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Record the sale' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      '$10.00 too much: the amounts must add up to the price',
    );
    expect(sales).toEqual([]);

    await user.clear(card);
    await user.type(card, '150');
    expect(screen.getByText('All $250.00 taken')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Record the sale' }));
    await expect
      .poll(() => sales)
      .toEqual([
        [
          { kind: 'cash', amount: '100.00' },
          { kind: 'card', amount: '150.00' },
        ],
      ]);
  });

  it('asks how an other payment was made, and takes a traded card at its agreed value', async () => {
    const user = userEvent.setup();
    const sales: TenderBody[][] = [];
    render(<SaleForm onSale={(tenders) => sales.push(tenders)} />);
    const paid = screen.getByRole('group', { name: /Paid with/ });
    await user.click(within(paid).getByRole('checkbox', { name: 'Cash' }));
    await user.click(within(paid).getByRole('checkbox', { name: 'Other (Venmo, PayPal…)' }));
    await user.click(within(paid).getByRole('checkbox', { name: 'A card in trade' }));
    await user.type(screen.getByRole('textbox', { name: 'Other ($)' }), '70');
    await user.type(screen.getByRole('textbox', { name: /Its agreed value/ }), '180');
    expect(screen.getByText('All $250.00 taken')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Record the sale' }));
    expect(await screen.findByText('Say how it was paid: Venmo, PayPal…')).toBeInTheDocument();
    expect(screen.getByText('Name the card taken in trade')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: /Paid by/ }), 'Venmo');
    await user.type(screen.getByRole('textbox', { name: 'Card taken in trade' }), '2003 LeBron');
    await user.click(screen.getByRole('button', { name: 'Record the sale' }));
    await expect
      .poll(() => sales)
      .toEqual([
        [
          { kind: 'other', amount: '70.00', note: 'Venmo' },
          {
            kind: 'trade',
            amount: '180.00',
            title: '2003 LeBron',
            certNumber: null,
            grader: null,
          },
        ],
      ]);
  });
});
