/** The show ledger's one query-key factory. */
export const showKeys = {
  all: () => ['shows'] as const,
  lists: () => [...showKeys.all(), 'list'] as const,
  detail: (key: string) => [...showKeys.all(), 'detail', key] as const,
  tradeIns: () => [...showKeys.all(), 'trade-ins'] as const,
  /** A listing's sale at any show. */
  sale: (listingId: string) => [...showKeys.all(), 'sale', listingId] as const,
};
