import { describe, expect, it } from 'vitest';
import type { OutboxItem, SaleWrite } from '../../src/api/outbox/outbox';
import type { LedgerEntry, ShowTotals } from '../../src/api/shows/show-api';
import { asLedgerRow, phoneSales, showTotals } from '../../src/features/show/ledger/waiting-sales';

const SHOW = 'show-1';

function sale(seq: number, price: string, patch: Partial<SaleWrite> = {}): SaleWrite {
  return {
    kind: 'sell-at-show',
    seq,
    madeAt: '2026-11-28T15:00:00.000Z',
    label: `Sold here: card ${seq}`,
    state: 'waiting',
    listingId: `lst_${seq}`,
    showKey: SHOW,
    deactivateKey: `d-${seq}`,
    listingUpdatedAt: null,
    sale: {
      key: `sale-${seq}`,
      soldAt: `2026-11-28T15:0${seq}:00.000Z`,
      listingId: `lst_${seq}`,
      title: `Card ${seq}`,
      certNumber: null,
      grader: null,
      price,
      tradeIn: null,
      cost: null,
    },
    ...patch,
  };
}

const entry = (key: string, priceCents: number): LedgerEntry => ({
  key,
  showKey: SHOW,
  soldAt: '2026-11-28T14:00:00.000Z',
  recordedAt: '2026-11-28T14:00:01.000Z',
  soldBy: 'olive',
  listingId: `lst_${key}`,
  title: `Card ${key}`,
  certNumber: null,
  grader: null,
  priceCents,
  discountCents: 0,
  tenders: [{ kind: 'cash', amountCents: priceCents, note: null, trade: null }],
  costCents: 20_000,
  soldOnline: false,
  offMarket: 'deactivated',
  note: null,
  voided: null,
});

const ledgerTotals: ShowTotals = {
  cardsSold: 1,
  salesCents: 25_000,
  cashCents: 25_000,
  cardCents: 0,
  otherCents: 0,
  trades: 0,
  tradeValueCents: 0,
  discountCents: 0,
  marginCents: 5_000,
  withoutCost: 0,
  soldOnline: 0,
  voided: 0,
};

describe('a show’s totals with the sales waiting on this phone', () => {
  it('adds a waiting sale into the totals and says how much of them waits', () => {
    const items: OutboxItem[] = [sale(1, '55.00')];
    const sales = phoneSales(items, SHOW, [entry('a', 25_000)]);
    const { totals, waiting } = showTotals(ledgerTotals, sales);
    expect(totals).toMatchObject({ cardsSold: 2, cashCents: 30_500, salesCents: 30_500 });
    expect(waiting).toMatchObject({ cardsSold: 1, cashCents: 5_500, salesCents: 5_500 });
    expect(asLedgerRow(sales[0]!)).toMatchObject({
      title: 'Card 1',
      priceCents: 5_500,
      waiting: true,
    });
  });

  it('counts cash as the price less a card taken in trade, and margin only with a cost', () => {
    const traded = sale(2, '300.00', {
      sale: {
        ...sale(2, '300.00').sale,
        tradeIn: { title: 'A trade', certNumber: null, grader: null, value: '120.00' },
        cost: '200.00',
      },
    });
    const { totals, waiting } = showTotals(ledgerTotals, phoneSales([traded], SHOW, []));
    expect(waiting).toMatchObject({
      cardsSold: 1,
      cashCents: 18_000,
      trades: 1,
      tradeValueCents: 12_000,
      marginCents: 10_000,
    });
    expect(totals.marginCents).toBe(15_000);
  });

  it('counts a waiting split by tender, with its discount, through the ledger’s own totals', () => {
    const split = sale(3, '250.00', {
      sale: {
        ...sale(3, '250.00').sale,
        discount: '25.00',
        tenders: [
          { kind: 'cash', amount: '100.00' },
          { kind: 'card', amount: '130.00' },
          { kind: 'other', amount: '20.00', note: 'Venmo' },
        ],
      },
    });
    const { totals, waiting } = showTotals(ledgerTotals, phoneSales([split], SHOW, []));
    expect(waiting).toMatchObject({
      cardsSold: 1,
      salesCents: 25_000,
      cashCents: 10_000,
      cardCents: 13_000,
      otherCents: 2_000,
      discountCents: 2_500,
      trades: 0,
    });
    expect(totals).toMatchObject({ cashCents: 35_000, cardCents: 13_000, cardsSold: 2 });
  });

  it('never counts a sale twice, nor one that is not a sale', () => {
    const items: OutboxItem[] = [
      // In the ledger as read already.
      sale(1, '250.00', { state: 'done', sale: { ...sale(1, '250.00').sale, key: 'a' } }),
      // Refused by the ledger (sold before), dropped, failed, another show's.
      sale(2, '40.00', { state: 'conflict', soldBefore: 'Sold at Hall on Nov 28.' }),
      sale(3, '40.00', { state: 'dropped' }),
      sale(4, '40.00', { state: 'failed' }),
      sale(5, '40.00', { showKey: 'another-show' }),
    ];
    expect(phoneSales(items, SHOW, [entry('a', 25_000)])).toEqual([]);
  });

  it('adds a sale sent since the ledger was read as sent, not waiting; without a ledger read, only what waits', () => {
    const sent = sale(6, '70.00', { state: 'done' });
    const waiting = sale(7, '30.00');
    const read = phoneSales([sent, waiting], SHOW, []);
    expect(read.map((row) => [row.write.seq, row.waiting])).toEqual([
      [6, false],
      [7, true],
    ]);
    expect(showTotals(ledgerTotals, read).waiting.cashCents).toBe(3_000);
    // The show's list totals already hold what was sent: only the waiting sale is added.
    expect(phoneSales([sent, waiting], SHOW, undefined).map((row) => row.write.seq)).toEqual([7]);
  });
});
