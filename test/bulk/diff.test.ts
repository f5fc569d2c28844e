import { describe, expect, it } from 'vitest';
import { planBulkEdit, planRow, RULES } from '../../src/features/listings/bulk-edit/logic/diff';
import { toEditValues, type EditValues } from '../../src/features/listings/bulk-edit/logic/rows';
import type { CatalogueRow } from '../../src/features/listings/catalogue/catalogue-row';
import { bulkRow } from './rows-fixture';

const edit = (row: CatalogueRow, patch: Partial<EditValues>): EditValues => ({
  ...toEditValues(row),
  ...patch,
});

describe('the diff of one row', () => {
  it('plans nothing for a row that does not change', () => {
    const row = bulkRow();
    expect(planRow(row, toEditValues(row))).toBeNull();
    // The same amount written differently is no change.
    expect(planRow(row, edit(row, { price: '$129.99' }))).toBeNull();
  });

  it('sends only the changed fields in one PUT', () => {
    const row = bulkRow({ priceText: '200.00' });
    const item = planRow(row, edit(row, { price: '180', acceptsTrades: true }))!;
    expect(item.writes).toEqual([
      { method: 'PUT', body: { price: '180.00', accepts_trades: true } },
    ]);
    expect(item.changes.map((c) => [c.label, c.before, c.after])).toEqual([
      ['Price', '200.00', '180.00'],
      ['Trades', 'off', 'on'],
    ]);
  });

  it('shows that a price below the minimum offer clears it, without sending it', () => {
    const row = bulkRow({ priceText: '200.00', minimumOffer: '150.00' });
    const item = planRow(row, edit(row, { price: '140.00' }))!;
    expect(item.writes).toEqual([{ method: 'PUT', body: { price: '140.00' } }]);
    expect(item.notes).toEqual([`${RULES.priceBelowOffer} (150.00 → none)`]);
    expect(item.changes).toContainEqual(
      expect.objectContaining({
        label: 'Minimum offer',
        before: '150.00',
        after: 'none',
        implied: true,
      }),
    );
  });

  it('keeps a minimum offer the seller lowered with the price', () => {
    const row = bulkRow({ priceText: '200.00', minimumOffer: '150.00' });
    const item = planRow(row, edit(row, { price: '140.00', minimumOffer: '120' }))!;
    expect(item.writes).toEqual([
      { method: 'PUT', body: { price: '140.00', minimum_offer: '120.00' } },
    ]);
    expect(item.notes).toEqual([]);
  });

  it('clears the minimum offer with offers turned off and never sends it', () => {
    const row = bulkRow({ minimumOffer: '100.00' });
    const item = planRow(row, edit(row, { acceptsOffers: false, minimumOffer: '90' }))!;
    expect(item.writes).toEqual([{ method: 'PUT', body: { accepts_offers: false } }]);
    expect(item.notes).toEqual([`${RULES.offersOff} (100.00 → none)`]);
  });

  it('sends null to clear a minimum offer', () => {
    const row = bulkRow({ minimumOffer: '100.00' });
    expect(planRow(row, edit(row, { minimumOffer: '' }))!.writes).toEqual([
      { method: 'PUT', body: { minimum_offer: null } },
    ]);
  });

  it('treats promotion as one-way', () => {
    const promoted = bulkRow({ promoted: true });
    const off = planRow(promoted, edit(promoted, { promoted: false }))!;
    expect(off.writes).toEqual([]);
    expect(off.notes).toEqual([RULES.promotionOneWay]);
    const plain = bulkRow();
    const on = planRow(plain, edit(plain, { promoted: true }))!;
    expect(on.writes).toEqual([{ method: 'PUT', body: { promoted: true } }]);
    expect(on.notes).toEqual([RULES.promotionFee]);
  });

  it('deactivates with a DELETE after the PUT of other changes', () => {
    const row = bulkRow();
    expect(planRow(row, edit(row, { status: 'inactive' }))!.writes).toEqual([{ method: 'DELETE' }]);
    const both = planRow(row, edit(row, { status: 'inactive', price: '99' }))!;
    expect(both.writes).toEqual([
      { method: 'PUT', body: { price: '99.00' } },
      { method: 'DELETE' },
    ]);
  });

  it('reactivates with status active and the fresh window duration', () => {
    const row = bulkRow({
      status: 'archived',
      reason: 'deactivated_by_seller',
      durationHours: 720,
    });
    const item = planRow(row, edit(row, { status: 'active', durationHours: '168' }))!;
    expect(item.writes).toEqual([
      { method: 'PUT', body: { status: 'active', duration_hours: 168 } },
    ]);
    expect(item.notes).toEqual([`${RULES.reactivate} (7 days)`]);
    const draft = bulkRow({ status: 'draft' });
    expect(planRow(draft, edit(draft, { status: 'active' }))!.writes).toEqual([
      { method: 'PUT', body: { status: 'active', duration_hours: 720 } },
    ]);
  });

  it('moves an active listing to draft, and extends a window', () => {
    const row = bulkRow();
    expect(planRow(row, edit(row, { status: 'draft' }))!.writes).toEqual([
      { method: 'PUT', body: { status: 'draft' } },
    ]);
    const extended = planRow(row, edit(row, { durationHours: '336' }))!;
    expect(extended.writes).toEqual([{ method: 'PUT', body: { duration_hours: 336 } }]);
    expect(extended.notes).toEqual([RULES.extend]);
  });
});

describe('the plan of a selection', () => {
  it('leaves sold listings out with their reason and counts the writes', () => {
    const a = bulkRow({ priceText: '100.00' });
    const b = bulkRow({ priceText: '50.00' });
    const sold = bulkRow({ status: 'archived', reason: 'sold' });
    const c = bulkRow();
    const plan = planBulkEdit(
      [a, b, sold, c],
      [
        edit(a, { price: '90' }),
        edit(b, { status: 'inactive', price: '45' }),
        edit(sold, { price: '10' }),
        toEditValues(c),
      ],
    );
    expect(plan.items.map((i) => i.id)).toEqual([a.id, b.id]);
    expect(plan.excluded).toEqual([
      { id: sold.id, title: sold.title, reason: 'sold: a sold listing cannot be changed' },
    ]);
    expect(plan.writes).toBe(3);
    expect(plan.rules).toEqual([RULES.deactivate]);
  });

  it('plans no row with an invalid cell and names each cell', () => {
    const a = bulkRow();
    const b = bulkRow({ status: 'archived', reason: 'expired', canReactivate: false });
    const plan = planBulkEdit(
      [a, b],
      [edit(a, { price: '9.99', title: '', minimumOffer: '1.001' }), edit(b, { status: 'active' })],
    );
    expect(plan.items).toEqual([]);
    expect(plan.writes).toBe(0);
    // Named by the card's title (the edited one, or the listing's when the cell is empty).
    expect(plan.invalid).toEqual([
      { id: a.id, title: a.title, field: 'title', message: 'is required' },
      { id: a.id, title: a.title, field: 'price', message: 'must be at least 10.00' },
      { id: a.id, title: a.title, field: 'minimumOffer', message: 'must have at most 2 decimals' },
      { id: b.id, title: b.title, field: 'status', message: 'this listing cannot be reactivated' },
    ]);
  });

  it('refuses a minimum offer above the new price', () => {
    const a = bulkRow({ priceText: '100.00' });
    const plan = planBulkEdit([a], [edit(a, { minimumOffer: '100.01' })]);
    expect(plan.invalid).toEqual([
      { id: a.id, title: a.title, field: 'minimumOffer', message: 'must be at most the price' },
    ]);
  });
});
