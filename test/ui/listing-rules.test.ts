import { describe, expect, it } from 'vitest';
import {
  OFFER_ABOVE_PRICE,
  PRICE_BELOW_OFFER,
  offerWithinPriceIssues,
  toApiAmount,
} from '../../src/client/listing-rules';
import { ListingCreateInput, ListingUpdateInput } from '../../src/client/write-schemas';
import { rowErrors, toEditValues } from '../../src/features/listings/bulk-edit/logic/rows';
import { newListingDefaults } from '../../src/features/listings/forms/listing-bodies';
import {
  EditListingForm,
  NewListingForm,
} from '../../src/features/listings/forms/listing-form-schemas';
import { fieldPathsOf } from '../../src/lib/schema-fields';
import { bulkRow } from '../bulk/rows-fixture';

/** One module of listing field rules: the write schemas, both forms and the grid agree. */
describe('listing rules, one home', () => {
  const issuesOf = (result: {
    success: boolean;
    error?: { issues: { path: PropertyKey[]; message: string }[] };
  }) => (result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]);

  it('a minimum offer above the price names both fields when sent together, exactly in cents', () => {
    expect(
      offerWithinPriceIssues({ price: '100.00', minimumOffer: '100.01', priceSent: true }),
    ).toEqual([
      { field: 'minimum_offer', message: OFFER_ABOVE_PRICE },
      { field: 'price', message: PRICE_BELOW_OFFER },
    ]);
    expect(offerWithinPriceIssues({ price: '100', minimumOffer: '$100.00' })).toEqual([]);
    expect(offerWithinPriceIssues({ price: '100', minimumOffer: '150', offersOff: true })).toEqual(
      [],
    );
    expect(
      issuesOf(ListingUpdateInput.safeParse({ price: '0.30', minimum_offer: 0.3 })),
    ).toContainEqual(['price', 'must be at least 10.00']);
    expect(
      issuesOf(ListingCreateInput.safeParse({ sku: '123', price: '50', minimum_offer: '60' })),
    ).toEqual([
      ['minimum_offer', OFFER_ABOVE_PRICE],
      ['price', PRICE_BELOW_OFFER],
    ]);
  });

  it('the new form, the edit form and the grid refuse the same amounts', () => {
    const form = { ...newListingDefaults({}), sku: '84512001', price: '50', minimum_offer: '60' };
    expect(issuesOf(NewListingForm.safeParse(form))).toEqual([
      ['minimum_offer', OFFER_ABOVE_PRICE],
      ['price', PRICE_BELOW_OFFER],
    ]);
    for (const offer of ['0', '0.00', '12.345', 'abc']) {
      const edit = EditListingForm.shape.minimum_offer.safeParse(offer);
      const grid = rowErrors({ ...toEditValues(bulkRow()), minimumOffer: offer });
      expect(edit.success, offer).toBe(false);
      expect(grid.minimumOffer, offer).toBeTruthy();
    }
    expect(EditListingForm.shape.price.safeParse('$1,250.50').success).toBe(true);
    expect(toApiAmount(' $1,250.50 ')).toBe('1250.50');
  });

  it('a form’s fields come from its schema, nested and array fields included', () => {
    const paths = fieldPathsOf(NewListingForm);
    expect(paths).toEqual(
      expect.arrayContaining(['sku', 'price', 'images', 'card.title', 'card.category']),
    );
    expect(paths).not.toContain('card');
    expect(fieldPathsOf(EditListingForm)).toContain('minimum_offer');
  });
});
