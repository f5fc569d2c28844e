import { describe, expect, it } from 'vitest';
import { ListingDetail, ListingListItem, readTolerant } from '../../src/client';
import { documentedListingRow } from '../support/listing-rows';

describe('the tolerant reader of the listing views', () => {
  it('reads a documented-only row whole, with nothing marked', () => {
    const read = readTolerant(ListingListItem, documentedListingRow);
    expect(read).toEqual({ ok: true, value: documentedListingRow });
  });

  it('ignores unknown fields and reads the extras a server sends', () => {
    const read = readTolerant(ListingListItem, {
      ...documentedListingRow,
      minimum_offer: '200.00',
      auto_relist: true,
      something_new: { nested: 1 },
    });
    expect(read.ok && read.value.minimum_offer).toBe('200.00');
    expect(read.ok && read.value.auto_relist).toBe(true);
    expect(read.ok && 'something_new' in read.value).toBe(false);
    expect(read.ok && read.value.unreadable).toBeUndefined();
  });

  it('keeps a record the schema takes whole as it came, and copies one with unknown fields', () => {
    const row = structuredClone(documentedListingRow);
    const read = readTolerant(ListingListItem, row);
    expect(read.ok && read.value).toBe(row);
    const nested = { ...row, card: { ...row.card, hologram: 'x' } };
    const copied = readTolerant(ListingListItem, nested);
    expect(copied.ok && copied.value).not.toBe(nested);
    expect(copied.ok && copied.value.card && 'hologram' in copied.value.card).toBe(false);
  });

  it('keeps a record with one odd field, and names the field', () => {
    const read = readTolerant(ListingListItem, {
      ...documentedListingRow,
      price: 'two hundred',
      card: { ...documentedListingRow.card, grader: 'XYZ' },
      minimum_offer: 12,
    });
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.value.unreadable?.sort()).toEqual(['card.grader', 'minimum_offer', 'price']);
    expect(read.value.price).toBeUndefined();
    expect(read.value.card?.grader).toBeUndefined();
    expect(read.value.card?.cert_number).toBe('84512001');
    expect(read.value.title).toBe(documentedListingRow.title);
  });

  it('a missing documented field is marked, not guessed', () => {
    const { accepts_offers: _dropped, ...rest } = documentedListingRow;
    const read = readTolerant(ListingListItem, rest);
    expect(read.ok && read.value.unreadable).toEqual(['accepts_offers']);
    expect(read.ok && read.value.accepts_offers).toBeUndefined();
  });

  it('fails only without a readable id, or for something that is not a record', () => {
    expect(readTolerant(ListingListItem, { ...documentedListingRow, id: 7 }).ok).toBe(false);
    expect(readTolerant(ListingListItem, 'lst_1').ok).toBe(false);
  });

  it('requires exactly the single view’s documented fields', () => {
    const single = {
      id: 'lst_1',
      title: 'T',
      status: 'archived',
      price: '10.00',
      card: {
        id: 'itm_1',
        title: 'C',
        cert_number: '1',
        grader: 'BGS',
        grade: '9.5',
        url: 'https://example.test/c',
      },
      unavailable_reason: 'sold',
      can_reactivate: false,
      url: 'https://example.test/l',
    };
    expect(ListingDetail.safeParse(single).success).toBe(true);
    const { can_reactivate: _c, ...withoutDocumented } = single;
    expect(ListingDetail.safeParse(withoutDocumented).success).toBe(false);
  });
});
