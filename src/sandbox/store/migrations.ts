/**
 * The sandbox's tables, the one source of each table's CREATE TABLE (in the migration that made
 * it) and of its row type (`RowOf`, in rows.ts). A column added later is added here and by an
 * `addColumns` step (shared/sqlite/migrate.ts), which skips a file made with it.
 */
export const TABLES = {
  meta: {
    key: 'TEXT PRIMARY KEY',
    value: 'TEXT NOT NULL',
  },
  sellers: {
    id: 'TEXT PRIMARY KEY',
    name: 'TEXT NOT NULL',
    state: "TEXT NOT NULL DEFAULT 'active'",
    write_approved: 'INTEGER NOT NULL DEFAULT 1',
    listing_cap: 'INTEGER',
    deleted: 'INTEGER NOT NULL DEFAULT 0',
    created_at: 'INTEGER NOT NULL',
  },
  api_keys: {
    id: 'TEXT PRIMARY KEY',
    seller_id: 'TEXT NOT NULL REFERENCES sellers(id)',
    token_hash: 'TEXT NOT NULL UNIQUE',
    mode: "TEXT NOT NULL CHECK (mode IN ('live', 'test'))",
    scopes: 'TEXT NOT NULL',
    revoked_at: 'INTEGER',
    created_at: 'INTEGER NOT NULL',
  },
  certs: {
    grader: 'TEXT NOT NULL',
    cert_number: 'TEXT NOT NULL',
    title: 'TEXT NOT NULL',
    grade: 'TEXT NOT NULL',
    year: 'INTEGER',
    card_set: 'TEXT',
    player: 'TEXT',
    category: 'TEXT',
    variant: 'TEXT',
  },
  inventory_items: {
    seq: 'INTEGER PRIMARY KEY AUTOINCREMENT',
    id: 'TEXT NOT NULL UNIQUE',
    seller_id: 'TEXT NOT NULL',
    test: 'INTEGER NOT NULL DEFAULT 0',
    cert_number: 'TEXT NOT NULL',
    grader: 'TEXT NOT NULL',
    grade: 'TEXT NOT NULL',
    title: 'TEXT NOT NULL',
    player: 'TEXT',
    year: 'INTEGER',
    card_set: 'TEXT',
    variant: 'TEXT',
    category: 'TEXT',
    cost_cents: 'INTEGER NOT NULL DEFAULT 0',
    hold: 'TEXT',
    created_at: 'INTEGER NOT NULL',
    updated_at: 'INTEGER NOT NULL',
  },
  listings: {
    seq: 'INTEGER PRIMARY KEY AUTOINCREMENT',
    id: 'TEXT NOT NULL UNIQUE',
    seller_id: 'TEXT NOT NULL',
    test: 'INTEGER NOT NULL DEFAULT 0',
    title: 'TEXT NOT NULL',
    description: "TEXT NOT NULL DEFAULT ''",
    status: "TEXT NOT NULL CHECK (status IN ('active', 'draft', 'archived'))",
    unavailable_reason: 'TEXT',
    price_cents: 'INTEGER NOT NULL',
    minimum_offer_cents: 'INTEGER',
    accepts_offers: 'INTEGER NOT NULL DEFAULT 1',
    accepts_trades: 'INTEGER NOT NULL DEFAULT 0',
    auto_relist: 'INTEGER NOT NULL DEFAULT 0',
    promoted: 'INTEGER NOT NULL DEFAULT 0',
    duration_hours: 'INTEGER NOT NULL DEFAULT 720',
    window_ends_at: 'INTEGER',
    scheduled_go_live_at: 'INTEGER',
    is_lot: 'INTEGER NOT NULL DEFAULT 0',
    card_count: 'INTEGER NOT NULL DEFAULT 1',
    primary_item_id: 'TEXT NOT NULL',
    images: "TEXT NOT NULL DEFAULT '[]'",
    handle: 'TEXT NOT NULL',
    created_at: 'INTEGER NOT NULL',
    listed_at: 'INTEGER',
    updated_at: 'INTEGER NOT NULL',
  },
  listing_items: {
    listing_id: 'TEXT NOT NULL',
    inventory_item_id: 'TEXT NOT NULL',
    position: 'INTEGER NOT NULL',
  },
  orders: {
    seq: 'INTEGER PRIMARY KEY AUTOINCREMENT',
    id: 'TEXT NOT NULL UNIQUE',
    seller_id: 'TEXT NOT NULL',
    test: 'INTEGER NOT NULL DEFAULT 0',
    name: 'TEXT NOT NULL UNIQUE',
    order_number: 'INTEGER NOT NULL',
    listing_id: 'TEXT NOT NULL',
    line_item_id: 'TEXT NOT NULL',
    sale_channel: 'TEXT NOT NULL',
    delivery_method: 'TEXT NOT NULL',
    subtotal_cents: 'INTEGER NOT NULL',
    tax_cents: 'INTEGER NOT NULL',
    refunded_cents: 'INTEGER NOT NULL DEFAULT 0',
    fee_cents: 'INTEGER NOT NULL',
    financial_status: 'TEXT NOT NULL',
    stage: 'INTEGER NOT NULL DEFAULT 0',
    cancel_reason: 'TEXT',
    cancelled_at: 'INTEGER',
    closed_at: 'INTEGER',
    sold_at: 'INTEGER NOT NULL',
    ship_by: 'INTEGER NOT NULL',
    cancel_after: 'INTEGER NOT NULL',
    tracking_number: 'TEXT',
    carrier_code: 'TEXT NOT NULL',
    label_url: 'TEXT',
    shipped_at: 'INTEGER',
    delivered_to_hub_at: 'INTEGER',
    authenticated_at: 'INTEGER',
    buyer_shipped_at: 'INTEGER',
    buyer_delivered_at: 'INTEGER',
    paid_at: 'INTEGER',
    payout_cents: 'INTEGER',
    created_at: 'INTEGER NOT NULL',
    updated_at: 'INTEGER NOT NULL',
  },
  inventory_levels: {
    item_seq: 'INTEGER PRIMARY KEY',
    inventory_item_id: 'TEXT NOT NULL UNIQUE',
    seller_id: 'TEXT NOT NULL',
    test: 'INTEGER NOT NULL DEFAULT 0',
    location_id: 'TEXT NOT NULL',
    available: 'INTEGER NOT NULL',
    reason: 'TEXT NOT NULL',
    reason_detail: 'TEXT NOT NULL',
    can_reactivate: 'INTEGER NOT NULL',
    updated_at: 'INTEGER NOT NULL',
  },
  idempotency_keys: {
    key_id: 'TEXT NOT NULL',
    idem_key: 'TEXT NOT NULL',
    request_hash: 'TEXT NOT NULL',
    status: 'INTEGER NOT NULL',
    body: 'TEXT NOT NULL',
    created_at: 'INTEGER NOT NULL',
  },
  webhooks: {
    seq: 'INTEGER PRIMARY KEY AUTOINCREMENT',
    id: 'TEXT NOT NULL UNIQUE',
    seller_id: 'TEXT NOT NULL',
    url: 'TEXT NOT NULL',
    topics: 'TEXT NOT NULL',
    secret: 'TEXT NOT NULL',
    enabled: 'INTEGER NOT NULL DEFAULT 1',
    disabled_reason: 'TEXT',
    created_at: 'INTEGER NOT NULL',
    updated_at: 'INTEGER NOT NULL',
  },
  events: {
    seq: 'INTEGER PRIMARY KEY AUTOINCREMENT',
    id: 'TEXT NOT NULL UNIQUE',
    seller_id: 'TEXT NOT NULL',
    test: 'INTEGER NOT NULL DEFAULT 0',
    topic: 'TEXT NOT NULL',
    resource_id: 'TEXT NOT NULL',
    payload: 'TEXT NOT NULL',
    created_at: 'INTEGER NOT NULL',
  },
  webhook_jobs: {
    id: 'INTEGER PRIMARY KEY AUTOINCREMENT',
    event_id: 'TEXT NOT NULL',
    webhook_id: 'TEXT NOT NULL',
    attempts: 'INTEGER NOT NULL DEFAULT 0',
    first_at: 'INTEGER NOT NULL',
    next_at: 'INTEGER NOT NULL',
    state:
      "TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed', 'skipped'))",
    updated_at: 'INTEGER NOT NULL',
  },
  webhook_deliveries: {
    seq: 'INTEGER PRIMARY KEY AUTOINCREMENT',
    webhook_id: 'TEXT NOT NULL',
    event_id: 'TEXT NOT NULL',
    topic: 'TEXT NOT NULL',
    attempt: 'INTEGER NOT NULL',
    status_code: 'INTEGER',
    error: 'TEXT',
    test_delivery: 'INTEGER NOT NULL DEFAULT 0',
    delivered_at: 'INTEGER NOT NULL',
  },
} as const;

export type TableName = keyof typeof TABLES;

/** The keys of more than one column. */
const PRIMARY_KEYS: Partial<Record<TableName, string>> = {
  certs: 'grader, cert_number',
  listing_items: 'listing_id, inventory_item_id',
  idempotency_keys: 'key_id, idem_key',
};

/** A column's value as better-sqlite3 returns it: null unless NOT NULL or the table's key. */
type ValueOf<Type> =
  | (Type extends `INTEGER${string}` ? number : string)
  | (Type extends `${string}NOT NULL${string}` | `${string}PRIMARY KEY${string}` ? never : null);

/** A table's row: booleans as 0/1, times as epoch ms. */
export type RowOf<Name extends TableName> = {
  -readonly [Column in keyof (typeof TABLES)[Name]]: ValueOf<(typeof TABLES)[Name][Column]>;
};

/** The CREATE TABLE statements of the tables from `first` to `last`, in TABLES's order. */
function createTables(first: TableName, last: TableName): string {
  const names = Object.keys(TABLES) as TableName[];
  return names
    .slice(names.indexOf(first), names.indexOf(last) + 1)
    .map((name) => {
      const columns = Object.entries(TABLES[name]).map(([column, type]) => `${column} ${type}`);
      const key = PRIMARY_KEYS[name];
      if (key) columns.push(`PRIMARY KEY (${key})`);
      return `CREATE TABLE ${name} (\n  ${columns.join(',\n  ')}\n);\n`;
    })
    .join('');
}

/** Schema migrations, one transaction each; `schema_versions` counts those applied (shared/sqlite). */
export const migrations: readonly string[] = [
  `${createTables('meta', 'inventory_levels')}
  CREATE INDEX inventory_items_scope ON inventory_items (seller_id, test, seq);
  CREATE INDEX inventory_items_updated ON inventory_items (seller_id, test, updated_at);
  CREATE INDEX inventory_items_cert ON inventory_items (seller_id, test, cert_number);
  CREATE INDEX listings_scope ON listings (seller_id, test, seq);
  CREATE INDEX listings_updated ON listings (seller_id, test, updated_at);
  CREATE INDEX listings_window ON listings (status, window_ends_at);
  CREATE INDEX listings_schedule ON listings (scheduled_go_live_at);
  CREATE UNIQUE INDEX listings_handle ON listings (handle);
  CREATE INDEX listing_items_item ON listing_items (inventory_item_id);
  CREATE INDEX orders_scope ON orders (seller_id, test, seq);
  CREATE INDEX orders_updated ON orders (seller_id, test, updated_at);
  CREATE INDEX orders_listing ON orders (listing_id);
  CREATE INDEX inventory_levels_scope ON inventory_levels (seller_id, test, item_seq);
  CREATE INDEX inventory_levels_updated ON inventory_levels (seller_id, test, updated_at);
  `,
  // 1: the write API's idempotent outcomes, and the webhook outbox (events, endpoints, jobs, log).
  `${createTables('idempotency_keys', 'webhook_deliveries')}
  CREATE INDEX webhooks_seller ON webhooks (seller_id, enabled);
  CREATE INDEX webhook_jobs_due ON webhook_jobs (state, next_at);
  CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, seq);
  `,
  // The next order number per seller is MAX(order_number): indexed, so a sale never scans every
  // order (seeding a dealer's 50,000 orders was quadratic without it).
  `CREATE INDEX IF NOT EXISTS orders_number ON orders (seller_id, order_number);`,
];
