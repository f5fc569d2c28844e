/** The typed map of the dashboard's paths (`pattern` for the router, functions for links). */
export const paths = {
  overview: { pattern: '/', to: () => '/' },
  listings: {
    pattern: '/listings',
    to: (search?: URLSearchParams | string) => {
      const query = search?.toString();
      return query ? `/listings?${query}` : '/listings';
    },
  },
  newListing: {
    pattern: '/listings/new',
    to: (prefill: { inventoryItemId?: string; sku?: string; grader?: string } = {}) => {
      const params = new URLSearchParams();
      if (prefill.inventoryItemId) params.set('inventory_item_id', prefill.inventoryItemId);
      if (prefill.sku) params.set('sku', prefill.sku);
      if (prefill.grader) params.set('grader', prefill.grader);
      const query = params.toString();
      return query ? `/listings/new?${query}` : '/listings/new';
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
      const query = params.toString();
      return query ? `/listings/bulk-edit?${query}` : '/listings/bulk-edit';
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
  orders: {
    pattern: '/orders',
    to: (search?: URLSearchParams | string) => {
      const query = search?.toString();
      return query ? `/orders?${query}` : '/orders';
    },
  },
  order: {
    pattern: '/orders/:orderId',
    to: (orderId: string) => `/orders/${encodeURIComponent(orderId)}`,
  },
  inventory: {
    pattern: '/inventory',
    to: (search?: URLSearchParams | string) => {
      const query = search?.toString();
      return query ? `/inventory?${query}` : '/inventory';
    },
  },
  locations: { pattern: '/locations', to: () => '/locations' },
  events: { pattern: '/events', to: () => '/events' },
  rules: {
    pattern: '/rules',
    to: (ruleId?: number) => (ruleId === undefined ? '/rules' : `/rules?rule=${ruleId}`),
  },
  activity: {
    pattern: '/activity',
    to: (search?: URLSearchParams | string) => {
      const query = search?.toString();
      return query ? `/activity?${query}` : '/activity';
    },
  },
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
