/** A list-view row with exactly the fields the spec documents, nothing more. */
export const documentedListingRow = {
  id: 'lst_1',
  title: '2018 Prizm Luka Doncic #280 PSA 10',
  status: 'active',
  price: '250.00',
  card: {
    id: 'itm_1',
    title: '2018 Prizm Luka Doncic #280',
    cert_number: '84512001',
    grader: 'PSA',
    grade: '10',
    year: 2018,
    set: 'Prizm',
    category: 'basketball',
  },
  is_lot: false,
  card_count: 1,
  accepts_offers: true,
  created_at: '2026-07-01T00:00:00.000Z',
  listed_at: '2026-07-01T00:00:00.000Z',
};
