/** A path with its query, when there is one. */
const withQuery = (path: string, search?: URLSearchParams | string) => {
  const query = search?.toString();
  return query ? `${path}?${query}` : path;
};

/** A list page: its link carries the list's search (filters, sort, view). */
const searched = <P extends string>(pattern: P) => ({
  pattern,
  to: (search?: URLSearchParams | string) => withQuery(pattern, search),
});

/** The typed map of the dashboard's paths (`pattern` for the router, functions for links). */
export const paths = {
  overview: { pattern: '/', to: () => '/' },
  listings: searched('/listings'),
  newListing: {
    pattern: '/listings/new',
    to: (prefill: { inventoryItemId?: string; sku?: string; grader?: string } = {}) => {
      const params = new URLSearchParams();
      if (prefill.inventoryItemId) params.set('inventory_item_id', prefill.inventoryItemId);
      if (prefill.sku) params.set('sku', prefill.sku);
      if (prefill.grader) params.set('grader', prefill.grader);
      return withQuery('/listings/new', params);
    },
  },
  bulkEdit: {
    pattern: '/listings/bulk-edit',
    /** Listings chosen one by one (`ids`), or every listing matching the listings page's search. */
    to: (selection: { ids: readonly string[] } | { search: URLSearchParams | string }) => {
      const params =
        'ids' in selection
          ? new URLSearchParams({ ids: selection.ids.join(',') })
          : new URLSearchParams(selection.search);
      return withQuery('/listings/bulk-edit', params);
    },
  },
  listing: {
    pattern: '/listings/:listingId',
    to: (listingId: string) => `/listings/${encodeURIComponent(listingId)}`,
  },
  editListing: {
    pattern: '/listings/:listingId/edit',
    to: (listingId: string) => `/listings/${encodeURIComponent(listingId)}/edit`,
  },
  orders: searched('/orders'),
  order: {
    pattern: '/orders/:orderId',
    to: (orderId: string) => `/orders/${encodeURIComponent(orderId)}`,
  },
  inventory: searched('/inventory'),
  locations: { pattern: '/locations', to: () => '/locations' },
  events: { pattern: '/events', to: () => '/events' },
  rules: {
    pattern: '/rules',
    to: (ruleId?: number) => (ruleId === undefined ? '/rules' : `/rules?rule=${ruleId}`),
  },
  activity: searched('/activity'),
  shows: { pattern: '/shows', to: () => '/shows' },
  /** Marks listings (from the catalogue's selection) as a show's case. */
  showCase: {
    pattern: '/shows/case',
    to: (listingIds: readonly string[]) =>
      `/shows/case?${new URLSearchParams({ ids: listingIds.join(',') }).toString()}`,
  },
  show: {
    pattern: '/shows/:showKey',
    to: (showKey: string) => `/shows/${encodeURIComponent(showKey)}`,
  },
  /** A sale's receipt, to show the buyer (or let them scan its code). */
  showReceipt: {
    pattern: '/shows/:showKey/receipt/:entryKey',
    to: (showKey: string, entryKey: string) =>
      `/shows/${encodeURIComponent(showKey)}/receipt/${encodeURIComponent(entryKey)}`,
  },
  insights: { pattern: '/insights', to: () => '/insights' },
  payouts: { pattern: '/payouts', to: () => '/payouts' },
  shipQueue: { pattern: '/ship-queue', to: () => '/ship-queue' },
  /** The show's counter view of a scanned or typed cert (the grader when the label named it). */
  showCert: {
    pattern: '/show/cert/:cert',
    to: (cert: string, grader?: string) =>
      `/show/cert/${encodeURIComponent(cert)}${grader ? `?grader=${encodeURIComponent(grader)}` : ''}`,
  },
  packingSheet: {
    pattern: '/ship-queue/packing-sheet',
    to: (orderIds: readonly string[]) =>
      `/ship-queue/packing-sheet?${new URLSearchParams({ orders: orderIds.join(',') }).toString()}`,
  },
} as const;
