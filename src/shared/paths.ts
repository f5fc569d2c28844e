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
    to: (prefill: { inventoryItemId?: string; sku?: string } = {}) => {
      const params = new URLSearchParams();
      if (prefill.inventoryItemId) params.set('inventory_item_id', prefill.inventoryItemId);
      if (prefill.sku) params.set('sku', prefill.sku);
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
  insights: { pattern: '/insights', to: () => '/insights' },
  payouts: { pattern: '/payouts', to: () => '/payouts' },
  shipQueue: { pattern: '/ship-queue', to: () => '/ship-queue' },
  packingSheet: {
    pattern: '/ship-queue/packing-sheet',
    to: (orderIds: readonly string[]) =>
      `/ship-queue/packing-sheet?${new URLSearchParams({ orders: orderIds.join(',') }).toString()}`,
  },
} as const;
