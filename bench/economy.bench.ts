import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Locator, Page } from '@playwright/test';
import { DEMO_SELLER_ID, type RunningSandbox } from '../src/sandbox';
import { LeakyBuckets } from '../src/sandbox/platform/leaky-bucket';
import { ALL_SCOPES } from '../src/sandbox/platform/scopes';
import { distPages } from '../src/server/dist-pages';
import { vitePages } from '../src/server/vite-pages';
import { figureAsked, type Bench } from './bench-api';
import { withDemoBrowser, withVisit } from './browser-setup';
import { mintKey } from './scale.bench';
import { sized } from './quick';

/**
 * What a seller's reload costs at the upstream (issue 40): a sandbox of 10,000 listings, half of
 * them sold (5,000 orders), the production build on our server with a key of its own, the hub
 * registered with the sandbox as `npm run dev` does (the tabs live on webhooks, not polling).
 * Every request the sandbox's HTTP server receives with the visit's key is one upstream call,
 * whatever its path: the browser's own reads and our server's (its replica's) alike.
 */
const LISTINGS = sized(10_000, 600);
const SOLD_SHARE = 0.5;
/** A reload (or a save) is charged every upstream call within this window after it. */
const WINDOW_MS = sized(20_000, 2_500);
/** Settled: no upstream call with the visit's key for this long, and none in flight. */
const QUIET_MS = sized(3_000, 600);
/** The most a first visit may take to settle: a cold walk of every collection, under the bucket. */
const SETTLE_CAP_MS = 240_000;
/** The most a reload or a save may take to show its result to the seller. */
const VISIBLE_CAP_MS = 60_000;
/** The bulk edit done through the API before the listings page's reload. */
const BULK_ROWS = sized(300, 20);
const API = '/2026-07';
/** Every read scope, and the listing writes the edit page needs. */
const SCOPES = [...ALL_SCOPES.filter((scope) => scope.startsWith('read_')), 'write_listings'];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const wanted = figureAsked;

/**
 * The filters a sandbox `page_info` carries (its signed body is JSON: version, resource, sort,
 * filters, ...), so a walk's later pages are named as its first; none when it cannot be read.
 */
function cursorFilters(pageInfo: string | null): Record<string, string> {
  try {
    const parts: unknown = JSON.parse(
      Buffer.from(pageInfo?.split('.')[0] ?? '', 'base64url').toString('utf8'),
    );
    const filters = Array.isArray(parts) ? (parts[3] as unknown) : undefined;
    return filters && typeof filters === 'object' ? (filters as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/**
 * A call's name for the breakdown: method and path, a record's id as `{id}`, and the query's
 * parameter names, a walk's later pages with their cursor's filters (`status` with its value:
 * the walks of each status are different reads).
 */
function callName(request: IncomingMessage): string {
  const url = new URL(request.url ?? '/', 'http://upstream');
  const segments = url.pathname.split('/');
  // ['', version, collection, id(.json)]: the id is the fourth.
  if (segments.length >= 4) {
    segments[3] = segments[3]!.endsWith('.json') ? '{id}.json' : '{id}';
  }
  const values = new Map<string, string>(
    Object.entries(cursorFilters(url.searchParams.get('page_info'))),
  );
  for (const [key, value] of url.searchParams) values.set(key, value);
  const params = [...values.keys()]
    .sort()
    .map((key) => (key === 'status' ? `status=${values.get(key)}` : key));
  return `${request.method ?? 'GET'} ${segments.join('/')}${params.length ? `?${params.join('&')}` : ''}`;
}

/** Every upstream call made with one key, counted where it lands: the sandbox's HTTP server. */
class UpstreamTally {
  private inFlight = 0;
  private lastAt = performance.now();
  private calls: { name: string; at: number }[] | undefined;

  private readonly onRequest = (request: IncomingMessage, response: ServerResponse) => {
    if (request.headers['x-service-access-token'] !== this.token) return;
    this.inFlight++;
    this.lastAt = performance.now();
    this.calls?.push({ name: callName(request), at: this.lastAt });
    response.once('close', () => {
      this.inFlight--;
      this.lastAt = performance.now();
    });
  };

  constructor(
    private readonly sandbox: RunningSandbox,
    private readonly token: string,
  ) {
    sandbox.app.server.on('request', this.onRequest);
  }

  close(): void {
    this.sandbox.app.server.off('request', this.onRequest);
  }

  /** Counts calls from now on (anew). */
  count(): void {
    this.calls = [];
  }

  /** The names of the calls counted that started before `until` (performance.now()). */
  counted(until = Infinity): string[] {
    return (this.calls ?? []).filter((call) => call.at < until).map((call) => call.name);
  }

  /** The names of every call counted; counting stops. */
  take(): string[] {
    const calls = this.counted();
    this.calls = undefined;
    return calls;
  }

  /** Calls answered or not yet: those still being answered. */
  get busy(): number {
    return this.inFlight;
  }

  /** Resolves once no call has started or been in flight for QUIET_MS; fails after `capMs`. */
  async quiet(what: string, capMs = SETTLE_CAP_MS): Promise<void> {
    const deadline = performance.now() + capMs;
    for (;;) {
      const now = performance.now();
      if (this.inFlight === 0 && now - this.lastAt >= QUIET_MS) return;
      if (now > deadline) {
        throw new Error(
          `${what}: the upstream was never quiet for ${QUIET_MS / 1000} s within ${capMs / 1000} s ` +
            `(${this.inFlight} calls in flight)`,
        );
      }
      await sleep(100);
    }
  }
}

/** Waits for what a seller sees; fails naming it. */
async function see(
  locator: Locator,
  what: string,
  timeout: number,
  state: 'visible' | 'hidden' = 'visible',
) {
  try {
    await locator.first().waitFor({ state, timeout });
  } catch (error) {
    throw new Error(`${what} was not ${state} within ${timeout / 1000} s`, { cause: error });
  }
}

/** A page of the dashboard and what a seller sees once it is done. */
interface SellerPage {
  name: string;
  path: string;
  done(page: Page, timeout: number): Promise<void>;
}

const listingsPage: SellerPage = {
  name: 'listings',
  path: '/listings',
  async done(page, timeout) {
    // Searchable: the summary counts the whole catalogue and the progress bar is gone.
    const whole = new RegExp(`^${LISTINGS} of ${LISTINGS} listings`);
    await see(
      page.getByRole('status').filter({ hasText: whole }),
      `"${LISTINGS} of ${LISTINGS} listings"`,
      timeout,
    );
    await see(
      page.getByRole('progressbar', { name: 'Loading the catalogue' }),
      'the catalogue progress bar',
      timeout,
      'hidden',
    );
  },
};

const overviewPage: SellerPage = {
  name: 'overview',
  path: '/',
  async done(page, timeout) {
    // The Work panel's figures (to ship, open orders, live listings) all given, the Money
    // panel's orders in.
    const work = page.getByRole('region', { name: 'Work' });
    await see(work, 'the Work panel', timeout);
    await see(
      work.getByRole('definition').filter({ hasText: /^…$/ }),
      'a Work figure still "…"',
      timeout,
      'hidden',
    );
    await see(
      page.getByRole('region', { name: 'Money' }).getByText('Loading orders…'),
      'the Money panel\'s "Loading orders…"',
      timeout,
      'hidden',
    );
  },
};

const ordersPage: SellerPage = {
  name: 'orders',
  path: '/orders',
  async done(page, timeout) {
    // The summary shows every order of the filter (open, by default): "N of N orders".
    await see(
      page.getByRole('status').filter({ hasText: /^([1-9]\d*) of \1 orders/ }),
      '"N of N orders"',
      timeout,
    );
  },
};

/** The row counts of this origin's kept collections (read, never waited for). */
const KEPT_HEADS = `new Promise((resolve) => {
  const req = indexedDB.open('slabdesk-kept');
  req.onsuccess = () => {
    const db = req.result;
    if (!db.objectStoreNames.contains('heads')) { db.close(); resolve({}); return; }
    const all = db.transaction('heads').objectStore('heads').getAll();
    all.onsuccess = () => {
      db.close();
      resolve(Object.fromEntries(all.result.map((head) => [head.collection, head.rowCount])));
    };
    all.onerror = () => { db.close(); resolve({}); };
  };
  req.onerror = () => resolve({});
})`;

async function keptRows(page: Page): Promise<string> {
  const heads = (await page.evaluate(KEPT_HEADS)) as Record<string, number>;
  const kept = Object.entries(heads).map(([collection, rows]) => `${collection} ${rows}`);
  return kept.length ? kept.join(', ') : 'nothing';
}

/** What one measured moment spent upstream. */
interface Spend {
  calls: string[];
  /** From the reload (or the click) to what the seller waits for, ms. */
  visibleMs: number;
  /** Calls still being answered when the window closed. */
  inFlight: number;
  /** Calls after the window, before the upstream was quiet (not in the figure). */
  later: number;
  notes: string[];
}

/** `label: N calls (...); path N, path N` — what a figure spent, path by path. */
function breakdown(label: string, spend: Spend): string {
  const byName = new Map<string, number>();
  for (const name of spend.calls) byName.set(name, (byName.get(name) ?? 0) + 1);
  const paths = [...byName]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([name, count]) => `${name} ${count}`)
    .join(', ');
  const facts = [
    `seen after ${(spend.visibleMs / 1000).toFixed(1)} s`,
    ...(spend.inFlight ? [`${spend.inFlight} still in flight at ${WINDOW_MS / 1000} s`] : []),
    ...(spend.later ? [`${spend.later} more after the window before quiet`] : []),
    ...spend.notes,
  ].join('; ');
  return `(${label}: ${spend.calls.length} calls in ${WINDOW_MS / 1000} s (${facts})${paths ? `: ${paths}` : ''})`;
}

interface Setup {
  browser: Browser;
  sandbox: RunningSandbox;
  outDir: string;
  /** The production build (the figures), or Vite as in `npm run dev`. */
  pages: 'production' | 'dev';
}

/**
 * A visit on a server of its own with a key of its own, the hub registered with the sandbox; its
 * webhook turned off after (the server is gone, its deliveries would only be retried).
 */
async function visit<T>(
  { browser, sandbox, outDir, pages }: Setup,
  body: (page: Page, appUrl: string, tally: UpstreamTally, token: string) => Promise<T>,
  webhooks = true,
): Promise<T> {
  const token = await mintKey(sandbox.url, SCOPES);
  const tally = new UpstreamTally(sandbox, token);
  try {
    return await withVisit(
      browser,
      { baseUrl: sandbox.url, apiKey: token },
      pages === 'production'
        ? async () => distPages(outDir)
        : (server) => vitePages(server, resolve(import.meta.dirname, '..')),
      async (page, appUrl) => {
        try {
          return await body(page, appUrl, tally, token);
        } catch (error) {
          // What the seller saw when it failed, for whoever reads the error.
          const shot = join(tmpdir(), `slabdesk-economy-failure-${Date.now()}.png`);
          await page.screenshot({ path: shot, fullPage: true }).catch(() => undefined);
          throw new Error(`${String(error)} (the page at ${page.url()}: ${shot})`, {
            cause: error,
          });
        }
      },
      webhooks
        ? { hub: { registerWith: { sandboxUrl: sandbox.url, sellerId: DEMO_SELLER_ID } } }
        : {},
    );
  } finally {
    tally.close();
    await disableWebhooks(sandbox.url);
  }
}

async function control<T>(sandboxUrl: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${sandboxUrl}/_sandbox${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) {
    throw new Error(`sandbox ${method} ${path}: ${response.status} ${await response.text()}`);
  }
  return (await response.json()) as T;
}

async function disableWebhooks(sandboxUrl: string) {
  const { webhooks } = await control<{ webhooks: { id: string; enabled?: boolean }[] }>(
    sandboxUrl,
    'GET',
    `/webhooks?seller_id=${DEMO_SELLER_ID}`,
  );
  for (const webhook of webhooks.filter((w) => w.enabled !== false)) {
    await control(sandboxUrl, 'PATCH', `/webhooks/${webhook.id}`, { enabled: false });
  }
}

/**
 * The calls counted in the WINDOW_MS from `start` (the figure: the whole window, quiet or not, so a
 * poll or a late page is part of the cost); then, for the breakdown only, how many more
 * came before the upstream was quiet (a walk the window cut short).
 */
async function windowFrom(tally: UpstreamTally, start: number, what: string) {
  await sleep(Math.max(0, start + WINDOW_MS - performance.now()));
  const inFlight = tally.busy;
  const calls = tally.counted(start + WINDOW_MS);
  await tally.quiet(`${what}: after the window`);
  return { calls, inFlight, later: tally.take().length - calls.length };
}

/** Opens `seller`'s page, lets it settle, reloads it and counts WINDOW_MS of upstream calls. */
async function reloadCost(
  setup: Setup,
  seller: SellerPage,
  before?: (token: string, tally: UpstreamTally) => Promise<string>,
): Promise<Spend> {
  return visit(setup, async (page, appUrl, tally, token) => {
    await page.goto(`${appUrl}${seller.path}`);
    await seller.done(page, SETTLE_CAP_MS);
    await tally.quiet(`${seller.name}: the first visit`);
    const notes = before ? [await before(token, tally)] : [];
    notes.push(`kept at the reload: ${await keptRows(page)}`);
    tally.count();
    const start = performance.now();
    await page.reload({ timeout: VISIBLE_CAP_MS });
    await seller.done(page, VISIBLE_CAP_MS);
    const visibleMs = performance.now() - start;
    return { ...(await windowFrom(tally, start, seller.name)), visibleMs, notes };
  });
}

interface ListingFacts {
  id: string;
  title: string;
  price: string;
  status: string;
}

/** Active listings (not sold, not archived) read with a key of the bench's own, not counted. */
async function activeListings(sandboxUrl: string, count: number): Promise<ListingFacts[]> {
  const token = await mintKey(sandboxUrl, ['read_listings']);
  const found: ListingFacts[] = [];
  let next: string | undefined = `${sandboxUrl}${API}/listings.json?limit=250`;
  while (next && found.length < count) {
    const response: Response = await fetch(next, { headers: { 'x-service-access-token': token } });
    if (!response.ok) throw new Error(`listings read: ${response.status} ${await response.text()}`);
    const { listings } = (await response.json()) as { listings: ListingFacts[] };
    found.push(...listings.filter((l) => l.status === 'active' && l.title && l.price));
    next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
  }
  if (found.length < count)
    throw new Error(`only ${found.length} active listings, ${count} wanted`);
  return found.slice(0, count);
}

async function readPrice(sandboxUrl: string, token: string, id: string): Promise<string> {
  const response = await fetch(`${sandboxUrl}${API}/listings/${id}.json`, {
    headers: { 'x-service-access-token': token },
  });
  if (!response.ok) throw new Error(`listing ${id}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { listing: { price: string } }).listing.price;
}

const raised = (price: string) => (Number(price) + 1).toFixed(2);

/** A price set through the API with the visit's key, the bucket off (setup, not measured). */
async function putPrices(sandbox: RunningSandbox, token: string, rows: readonly ListingFacts[]) {
  const buckets = sandbox.context.buckets;
  sandbox.context.buckets = new LeakyBuckets(false);
  try {
    let next = 0;
    const worker = async () => {
      while (next < rows.length) {
        const row = rows[next++]!;
        const response = await fetch(`${sandbox.url}${API}/listings/${row.id}.json`, {
          method: 'PUT',
          headers: {
            'x-service-access-token': token,
            'content-type': 'application/json',
            'idempotency-key': randomUUID(),
          },
          body: JSON.stringify({ listing: { price: raised(row.price) } }),
        });
        if (!response.ok) {
          throw new Error(`bulk PUT ${row.id}: ${response.status} ${await response.text()}`);
        }
      }
    };
    await Promise.all(Array.from({ length: 6 }, worker));
  } finally {
    sandbox.context.buckets = buckets;
  }
}

/**
 * The seller finds a listing on the settled listings page, opens its edit page, raises the price
 * and saves: counted from the click on Save for WINDOW_MS.
 */
async function priceEditCost(setup: Setup, listing: ListingFacts): Promise<Spend> {
  return visit(setup, async (page, appUrl, tally, token) => {
    await page.goto(`${appUrl}${listingsPage.path}`);
    await listingsPage.done(page, SETTLE_CAP_MS);
    await tally.quiet('price edit: the listings page');
    // By its id: one row (titles repeat in a catalogue this size).
    await page.getByRole('searchbox', { name: 'Search' }).fill(listing.id);
    await see(
      page.getByRole('status').filter({ hasText: new RegExp(`^1 of ${LISTINGS} listings`) }),
      `"1 of ${LISTINGS} listings" for the search`,
      VISIBLE_CAP_MS,
    );
    // The search in the address bar too (it follows typing 250 ms later): a link clicked before
    // is undone by that update, the listing's page never shown.
    await page.waitForURL((url) => url.searchParams.get('q') === listing.id, {
      timeout: VISIBLE_CAP_MS,
    });
    await page.getByRole('link', { name: listing.title, exact: true }).click();
    await see(
      page.getByRole('heading', { name: listing.title, level: 1 }),
      "the listing's page",
      VISIBLE_CAP_MS,
    );
    await page.getByRole('link', { name: 'Edit listing' }).click();
    const price = page.getByRole('textbox', { name: 'Price (USD)' });
    await see(price, 'the edit page\'s "Price (USD)"', VISIBLE_CAP_MS);
    await tally.quiet('price edit: the edit page');
    const newPrice = raised(listing.price);
    await price.fill(newPrice);
    tally.count();
    const start = performance.now();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await see(page.getByRole('status').filter({ hasText: 'Saved.' }), '"Saved."', VISIBLE_CAP_MS);
    const visibleMs = performance.now() - start;
    const spent = await windowFrom(tally, start, 'price edit');
    const stored = await readPrice(setup.sandbox.url, token, listing.id);
    if (Number(stored) !== Number(newPrice)) {
      throw new Error(`price edit: the sandbox holds ${stored} for ${listing.id}, not ${newPrice}`);
    }
    return { ...spent, visibleMs, notes: [] };
  });
}

/**
 * The first device fills the hub (Listings opened, everything settled); then a second device (a
 * new browser: no kept copy) opens Listings: counted from its visit for WINDOW_MS.
 */
async function secondDeviceCost(setup: Setup): Promise<Spend> {
  return visit(setup, async (page, appUrl, tally) => {
    await page.goto(`${appUrl}${listingsPage.path}`);
    await listingsPage.done(page, SETTLE_CAP_MS);
    await tally.quiet('second device: the first device’s visit');
    const context = await setup.browser.newContext({
      serviceWorkers: 'block',
      viewport: { width: 390, height: 844 },
    });
    try {
      const phone = await context.newPage();
      tally.count();
      const start = performance.now();
      await phone.goto(`${appUrl}${listingsPage.path}`, { timeout: VISIBLE_CAP_MS });
      await listingsPage.done(phone, VISIBLE_CAP_MS);
      const visibleMs = performance.now() - start;
      const notes = [`kept on the second device: ${await keptRows(phone)}`];
      return { ...(await windowFrom(tally, start, 'second device')), visibleMs, notes };
    } finally {
      await context.close();
    }
  });
}

/** How long idle tabs are counted: the issue’s ten minutes (5 s in a quick run: it runs, no more). */
const IDLE_MS = sized(10 * 60_000, 5_000);

/**
 * `tabs` tabs of Orders left open with no webhook registered, on a server and key of their own,
 * counted for IDLE_MS from `together` (both runs start their window at once).
 */
async function idleTabsCost(
  setup: Setup,
  tabs: number,
  together: Promise<void>,
  settled: () => void,
) {
  return visit(
    setup,
    async (page, appUrl, tally) => {
      try {
        const open = [page];
        for (let i = 1; i < tabs; i++) open.push(await page.context().newPage());
        for (const tab of open) {
          await tab.goto(`${appUrl}${ordersPage.path}`);
          await ordersPage.done(tab, SETTLE_CAP_MS);
        }
        await tally.quiet(`${tabs} idle tabs: their first visit`);
      } finally {
        // A run that failed lets the other start its window (and end) rather than wait forever.
        settled();
      }
      await together;
      tally.count();
      await sleep(IDLE_MS);
      return tally.take().length;
    },
    false,
  );
}

const FIGURES = {
  listings: 'economy.reload_listings.upstream_calls',
  overview: 'economy.reload_overview.upstream_calls',
  orders: 'economy.reload_orders.upstream_calls',
  priceEdit: 'economy.price_edit.upstream_calls',
  afterBulk: 'economy.reload_listings_after_bulk.upstream_calls',
  secondDevice: 'economy.second_device_first_visit.upstream_calls',
  idleTabs: 'economy.idle_5_tabs_10min.ratio',
} as const;

const bench: Bench = {
  figures: Object.values(FIGURES),
  async run(report) {
    const started = performance.now();
    await withDemoBrowser(
      { demoListings: LISTINGS, demoSoldShare: SOLD_SHARE },
      async ({ outDir, sandbox, browser }) => {
        console.log(
          `(economy: ${LISTINGS} listings and their orders seeded, bundle built in ${Math.round(
            (performance.now() - started) / 1000,
          )} s)`,
        );
        const setup: Setup = { outDir, sandbox, browser, pages: 'production' };
        const [edited, ...bulk] = await activeListings(sandbox.url, 1 + BULK_ROWS);
        for (const [seller, name] of [
          [listingsPage, FIGURES.listings],
          [overviewPage, FIGURES.overview],
          [ordersPage, FIGURES.orders],
        ] as const) {
          if (!wanted(name)) continue;
          const spend = await reloadCost(setup, seller);
          console.log(breakdown(`${seller.name} reload`, spend));
          report(name, spend.calls.length);
        }
        if (wanted(FIGURES.priceEdit)) {
          const spend = await priceEditCost(setup, edited!);
          console.log(breakdown('price edit, from the click on Save', spend));
          report(FIGURES.priceEdit, spend.calls.length);
        }
        if (wanted(FIGURES.afterBulk)) {
          const spend = await reloadCost(setup, listingsPage, async (token, tally) => {
            // The bulk's own PUTs are not counted; what the open tab read on their webhooks is
            // noted (it is spent before the reload).
            tally.count();
            await putPrices(sandbox, token, bulk);
            await tally.quiet('after the bulk edit');
            const reads = tally.take().filter((name) => !name.startsWith('PUT '));
            return `${BULK_ROWS} prices set through the API, then ${reads.length} reads by the open tab before the reload`;
          });
          console.log(breakdown(`listings reload after ${BULK_ROWS} API edits`, spend));
          report(FIGURES.afterBulk, spend.calls.length);
        }
        if (wanted(FIGURES.secondDevice)) {
          const spend = await secondDeviceCost(setup);
          console.log(breakdown('second device, first visit of Listings', spend));
          report(FIGURES.secondDevice, spend.calls.length);
        }
        if (wanted(FIGURES.idleTabs)) {
          // One tab and five, each on a server and key of its own, counted over the same minutes.
          let settledOne = () => {};
          let settledFive = () => {};
          const together = Promise.all([
            new Promise<void>((resolve) => (settledOne = resolve)),
            new Promise<void>((resolve) => (settledFive = resolve)),
          ]).then(() => undefined);
          const [one, five] = await Promise.all([
            idleTabsCost(setup, 1, together, settledOne),
            idleTabsCost(setup, 5, together, settledFive),
          ]);
          console.log(
            `(idle Orders tabs, no webhook, ${IDLE_MS / 60_000} min: one tab ${one} upstream calls, five tabs ${five})`,
          );
          report(FIGURES.idleTabs, Math.round((five / Math.max(1, one)) * 1000) / 1000);
        }
        // SLABDESK_BENCH_ECONOMY_DEV=1: the three reloads again on Vite, as `npm run dev` serves
        // them (React's development build), printed beside the figures, not figures of their own.
        if (process.env.SLABDESK_BENCH_ECONOMY_DEV === '1') {
          for (const seller of [listingsPage, overviewPage, ordersPage]) {
            const spend = await reloadCost({ ...setup, pages: 'dev' }, seller);
            console.log(breakdown(`dev: ${seller.name} reload`, spend));
          }
        }
      },
    );
  },
};

export default bench;
