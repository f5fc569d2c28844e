import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { QueryClient } from '@tanstack/react-query';
import {
  createCollection,
  createLiveQueryCollection,
  ilike,
  like,
  or,
  type ChangeMessageOrDeleteKeyMessage,
  type Collection,
  type SyncConfig,
} from '@tanstack/db';
import type { ListingRead } from '../src/client';
import { patchKeptRow } from '../src/api/kept/kept-rows';
import { syncKept, type HubFeedPage, type Kept, type KeptSource } from '../src/api/kept/kept-sync';
import {
  applyCatalogueSearch,
  readCatalogueSearch,
  searchNarrowing,
} from '../src/features/listings/catalogue/catalogue-filters';
import {
  searchTextOf,
  toCatalogueRow,
  type CatalogueRow,
} from '../src/features/listings/catalogue/catalogue-row';
import { median, round } from './bench-api';

/**
 * Issue 50, item 3: the browser's kept listings as plain arrays (what `Kept<T>` holds, searched by
 * the catalogue's filter) against the same rows in a TanStack DB collection searched by a live
 * query. `npx tsx --expose-gc bench/tanstack-db-compare.ts [rows] [runs]` (default 100,000 rows,
 * one run; with more runs each figure is their median). Not one of `npm run bench`'s figures
 * (minutes a run, for a library the bundle does not hold): docs/decisions/005-browser-collections.md
 * has the outcome.
 *
 * The rows are the hub's replica feed (`/hub/replica/listings`) over the sandbox's demo store, as
 * a browser with no copy reads them. Each side runs in a child process of its own, as the
 * production bundle runs (`NODE_ENV=production`): heap is `heapUsed` after full collections, less
 * the same before the rows were parsed (the feed's text is held throughout, so it counts in
 * neither). The plain side runs the app's own code: syncKept, toCatalogueRow and searchTextOf,
 * searchNarrowing (what the page calls per keystroke) and patchKeptRow.
 */

const TYPED = ['m', 'ma', 'mah', 'maho', 'mah', 'ma', 'm', ''];
/** Times the typed sequence runs (each a fresh rows array for the plain side: no memory carried). */
const ROUNDS = 3;
/** Rows changed one at a time while a search is shown. */
const CHANGES = 20;
const SHOWN_WHILE_CHANGING = 'ma';

interface Side {
  /** ms from the parsed feed pages to the collection holding them (Kept, or a TanStack DB one). */
  collectionMs: number;
  /** ms from there to the catalogue's rows ready to draw and search (search texts built). */
  catalogueMs: number;
  /** Heap of the parsed rows alone (both sides hold these very objects). */
  rowsMb: number;
  /** Heap with the collection made (the feed's page objects let go). */
  collectionMb: number;
  /** Heap with everything the side holds at rest: the collection, the catalogue's rows. */
  heapMb: number;
  /** Median ms from a new search text to its result array, over the typed sequence. */
  keystrokeMs: number;
  /** The same for the first keystroke ('m', the widest result) alone. */
  firstKeyMs: number;
  /** Another way to search (plain: the scan without memory; TanStack DB: `ilike` on the raw rows). */
  otherKeystrokeMs: number;
  /** Median ms from one row's change to the shown search's result having it. */
  rowChangeMs: number;
  /** Matches per typed text: both sides must agree. */
  counts: number[];
}

type Variant = 'arrays' | 'tanstack-db';

const gc = () => {
  if (!global.gc) throw new Error('run with --expose-gc');
  global.gc();
  global.gc();
};
/** Heap used after full collections, once it stops falling (the loader's leftovers go first). */
async function heapMb(): Promise<number> {
  let last = Infinity;
  for (let i = 0; i < 20; i++) {
    gc();
    const now = process.memoryUsage().heapUsed / (1024 * 1024);
    if (last - now < 0.05) return now;
    last = now;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return last;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The feed's pages as hubFeed yields them (rows checked to be records, nothing set aside). */
function parsePages(texts: readonly string[]): HubFeedPage<ListingRead>[] {
  return texts.map((text) => {
    const page = JSON.parse(text) as HubFeedPage<unknown>;
    return { ...page, setAside: [], rows: page.rows.filter(isRecord) as unknown as ListingRead[] };
  });
}

const searchOf = (q: string) => ({ ...readCatalogueSearch(new URLSearchParams()), q });

/** A listing changed as a webhook would change it: a new price, a later `updated_at`. */
const changed = (listing: ListingRead, i: number): ListingRead => ({
  ...listing,
  price: `${(Number(listing.price ?? 0) + 1 + i).toFixed(2)}`,
  updated_at: new Date(
    Date.parse(listing.updated_at ?? '2026-01-01') + 60_000 * (i + 1),
  ).toISOString(),
});

/** The plain side: the real syncKept over the pages, the catalogue's derivation, its filter. */
async function plainArrays(texts: readonly string[]): Promise<Side> {
  const before = await heapMb();
  const pages = parsePages(texts);
  const rowsMb = (await heapMb()) - before;
  const source: KeptSource<ListingRead> = {
    collection: 'listings',
    scope: 'bench',
    feed: async function* () {
      yield* pages;
    },
  };
  let started = performance.now();
  let kept: Kept<ListingRead> = await syncKept(source, {
    db: null,
    current: () => undefined,
    show: () => true,
  });
  const collectionMs = performance.now() - started;
  // The feed's page objects go (the rows stay, held by the collection).
  pages.length = 0;
  const collectionMb = (await heapMb()) - before;
  // use-catalogue's derivation (each listing made a catalogue row once), then its idle fill of
  // the search texts, done here at once.
  started = performance.now();
  let rows: CatalogueRow[] = kept.rows.map((listing) => toCatalogueRow(listing));
  for (const row of rows) searchTextOf(row);
  const catalogueMs = performance.now() - started;
  const heap = (await heapMb()) - before;

  const counts: number[] = [];
  const times: number[] = [];
  const firsts: number[] = [];
  const scans: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // A fresh array, as after any change: searchNarrowing remembers nothing of the last round.
    rows = rows.slice();
    for (const [i, text] of TYPED.entries()) {
      const t0 = performance.now();
      const out = searchNarrowing(rows, searchOf(text));
      const elapsed = performance.now() - t0;
      times.push(elapsed);
      if (i === 0) firsts.push(elapsed);
      if (round === 0) counts.push(out.length);
      const s0 = performance.now();
      applyCatalogueSearch(rows, searchOf(text));
      scans.push(performance.now() - s0);
    }
  }

  // One row changes while a search is shown: the kept copy patched (kept-rows), the derivation's
  // walk (a new catalogue row for the changed listing only), the search made again.
  const queryClient = new QueryClient();
  const key = ['listings'];
  queryClient.setQueryData(key, kept);
  const shown = searchOf(SHOWN_WHILE_CHANGING);
  const targets = searchNarrowing(rows, shown).slice(0, CHANGES);
  const from = kept.rows.slice();
  const work = rows.slice();
  const changes: number[] = [];
  for (const [i, target] of targets.entries()) {
    const next = changed(
      kept.rows.find((row) => row.id === target.id)!,
      i,
    );
    const t0 = performance.now();
    patchKeptRow<ListingRead>(queryClient, key, target.id, () => next);
    kept = queryClient.getQueryData<Kept<ListingRead>>(key)!;
    for (let j = 0; j < kept.rows.length; j++) {
      const listing = kept.rows[j]!;
      if (from[j] === listing) continue;
      from[j] = listing;
      work[j] = toCatalogueRow(listing);
    }
    rows = work.slice();
    const out = searchNarrowing(rows, shown);
    changes.push(performance.now() - t0);
    if (!out.some((row) => row.id === target.id && row.priceText === next.price))
      throw new Error('plain: the change is not in the shown result');
  }
  queryClient.clear();
  return {
    collectionMs,
    catalogueMs,
    rowsMb,
    collectionMb,
    heapMb: heap,
    keystrokeMs: median(times),
    firstKeyMs: median(firsts),
    otherKeystrokeMs: median(scans),
    rowChangeMs: median(changes),
    counts,
  };
}

type SyncParams = Parameters<SyncConfig<ListingRead, string>['sync']>[0];

/**
 * The TanStack DB side: a collection synced from the same pages (one sync transaction a page, as
 * a sync adapter over the feed would), the catalogue rows a live query derived from it, and a
 * new live query for each search text (what `useLiveQuery` does when its deps change).
 */
async function tanstackDb(texts: readonly string[]): Promise<Side> {
  const before = await heapMb();
  const pages = parsePages(texts);
  const rowsMb = (await heapMb()) - before;

  let started = performance.now();
  let sync: SyncParams | undefined;
  const listings = createCollection<ListingRead, string>({
    id: 'listings',
    getKey: (row) => row.id,
    sync: {
      sync: (params) => {
        sync = params;
      },
    },
    startSync: true,
  });
  if (!sync) throw new Error('the collection did not start its sync');
  const write = (message: ChangeMessageOrDeleteKeyMessage<ListingRead, string>) =>
    sync!.write(message);
  for (const page of pages) {
    sync.begin();
    for (const row of page.rows) write({ type: 'insert', value: row });
    sync.commit();
  }
  sync.markReady();
  const collectionMs = performance.now() - started;
  // The feed's page objects go (the rows stay, held by the collection).
  pages.length = 0;
  const collectionMb = (await heapMb()) - before;

  // The catalogue rows, a live query derived from the listings (use-catalogue's derivation).
  started = performance.now();
  const catalogue = createLiveQueryCollection({
    id: 'catalogue',
    query: (q) =>
      q.from({ l: listings }).fn.select(({ l }) => {
        const row = toCatalogueRow(l);
        searchTextOf(row);
        return row;
      }),
    startSync: true,
  });
  // Held as the page would hold it (useLiveQuery subscribes): never collected under the bench.
  const keep = catalogue.subscribeChanges(() => {});
  // The empty search shows every catalogue row (the page's first draw).
  const shownAll = await catalogue.toArrayWhenReady();
  const catalogueMs = performance.now() - started;
  const heap = (await heapMb()) - before;
  if (shownAll.length !== listings.size) throw new Error('tanstack-db: rows missing');

  const counts: number[] = [];
  const times: number[] = [];
  const firsts: number[] = [];
  let previous: Collection<CatalogueRow, string | number> | undefined;
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, text] of TYPED.entries()) {
      const pattern = `%${text.toLowerCase()}%`;
      const t0 = performance.now();
      const query =
        text === ''
          ? undefined
          : createLiveQueryCollection({
              query: (q) => q.from({ c: catalogue }).where(({ c }) => like(c.search, pattern)),
              startSync: true,
            });
      const out = query ? await query.toArrayWhenReady() : catalogue.toArray;
      const elapsed = performance.now() - t0;
      times.push(elapsed);
      if (i === 0) firsts.push(elapsed);
      if (round === 0) counts.push(out.length);
      await previous?.cleanup();
      previous = query as Collection<CatalogueRow, string | number> | undefined;
    }
  }
  await previous?.cleanup();

  // `ilike` over the raw rows' fields that make the search text (no derived collection).
  const raw: number[] = [];
  for (const text of TYPED.slice(0, 4)) {
    const pattern = `%${text}%`;
    const t0 = performance.now();
    const query = createLiveQueryCollection({
      query: (q) =>
        q
          .from({ l: listings })
          .where(({ l }) =>
            or(
              ilike(l.title, pattern),
              ilike(l.card?.player, pattern),
              ilike(l.card?.cert_number, pattern),
              ilike(l.card?.set, pattern),
              ilike(l.card?.category, pattern),
              ilike(l.id, pattern),
            ),
          ),
      startSync: true,
    });
    const out = await query.toArrayWhenReady();
    raw.push(performance.now() - t0);
    if (out.length !== counts[TYPED.indexOf(text)])
      throw new Error(`tanstack-db: ilike found ${out.length} for "${text}"`);
    await query.cleanup();
  }

  // One row changes while a search is shown: a sync transaction of one update, until the shown
  // live query says so (the differential dataflow's case).
  const pattern = `%${SHOWN_WHILE_CHANGING}%`;
  const shown = createLiveQueryCollection({
    query: (q) => q.from({ c: catalogue }).where(({ c }) => like(c.search, pattern)),
    startSync: true,
  });
  const targets = (await shown.toArrayWhenReady()).slice(0, CHANGES);
  const changes: number[] = [];
  for (const [i, target] of targets.entries()) {
    const next = changed(listings.get(target.id)!, i);
    const t0 = performance.now();
    const landed = new Promise<void>((resolve) => {
      const subscription = shown.subscribeChanges((messages) => {
        if (messages.some((m) => m.key === target.id && m.value.priceText === next.price)) {
          subscription.unsubscribe();
          resolve();
        }
      });
    });
    sync.begin();
    write({ type: 'update', value: next });
    sync.commit();
    await landed;
    changes.push(performance.now() - t0);
  }
  await shown.cleanup();
  keep.unsubscribe();
  return {
    collectionMs,
    catalogueMs,
    rowsMb,
    collectionMb,
    heapMb: heap,
    keystrokeMs: median(times),
    firstKeyMs: median(firsts),
    otherKeystrokeMs: median(raw),
    rowChangeMs: median(changes),
    counts,
  };
}

/** The hub's feed of `listings` demo listings: each answer's body as sent, snapshot to its end. */
async function readFeed(listings: number): Promise<string[]> {
  // Imported here: the sides' processes never load the servers.
  const { DEMO_SELLER_ID, startSandbox } = await import('../src/sandbox');
  const { startAppServer } = await import('../src/server/app-server');
  const { serverLog } = await import('../src/server/log');
  serverLog.level = 'error';
  const sandbox = await startSandbox({
    port: 0,
    db: ':memory:',
    seed: 'demo',
    demoListings: listings,
    rateLimit: false,
  });
  const dir = mkdtempSync(join(tmpdir(), 'slabdesk-tdb-'));
  try {
    const minted = await fetch(`${sandbox.url}/_sandbox/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seller_id: DEMO_SELLER_ID, mode: 'live', scopes: ['read_listings'] }),
    });
    const token = ((await minted.json()) as { key: { token: string } }).key.token;
    const app = await startAppServer(
      {
        upstream: { baseUrl: sandbox.url, apiKey: token },
        port: 0,
        replica: { path: join(dir, 'replica.db') },
      },
      async () => ({ development: false, register: async () => {}, pageHtml: async () => null }),
    );
    try {
      await app.replica.ready(['listings']);
      const texts: string[] = [];
      let cursor: string | undefined;
      for (;;) {
        const query = cursor === undefined ? '' : `?cursor=${encodeURIComponent(cursor)}`;
        const response = await fetch(`${app.url}/hub/replica/listings${query}`);
        const text = await response.text();
        if (!response.ok) throw new Error(`feed: ${response.status} ${text.slice(0, 200)}`);
        texts.push(text);
        const page = JSON.parse(text) as { more: boolean; cursor: string };
        if (!page.more) break;
        cursor = page.cursor;
      }
      return texts;
    } finally {
      await app.close();
    }
  } finally {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const profile = process.env.TDB_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=/tmp/tdb/prof'] : [];

function runSide(variant: Variant, file: string): Promise<Side> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['--side', variant, file], {
      execArgv: ['--expose-gc', '--max-old-space-size=8192', '--import', 'tsx', ...profile],
      // As the production bundle runs: the libraries' development checks are off.
      env: { ...process.env, NODE_ENV: 'production' },
    });
    child.once('message', (side) => resolve(side as Side));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`${variant} exited with ${code}`));
    });
  });
}

async function main(): Promise<void> {
  const at = process.argv.indexOf('--side');
  if (at >= 0) {
    const variant = process.argv[at + 1] as Variant;
    const texts = JSON.parse(readFileSync(process.argv[at + 2]!, 'utf8')) as string[];
    const side = variant === 'arrays' ? await plainArrays(texts) : await tanstackDb(texts);
    // The feed's text stays held to here: it is in the heap before and after alike.
    if (texts.length === 0) throw new Error('no feed');
    process.send!(side, () => process.exit(0));
    return;
  }
  const listings = Number(process.argv[2] ?? 100_000);
  const runs = Number(process.argv[3] ?? 1);
  const readStarted = performance.now();
  const texts = await readFeed(listings);
  const dir = mkdtempSync(join(tmpdir(), 'slabdesk-tdb-feed-'));
  const file = join(dir, 'feed.json');
  writeFileSync(file, JSON.stringify(texts));
  const bytes = texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
  console.log(
    `feed: ${listings} listings, ${texts.length} answers, ${round(bytes / 1e6, 1)} MB of JSON (${Math.round((performance.now() - readStarted) / 1000)} s to seed, fill and read)`,
  );
  try {
    const sides: Record<Variant, Side[]> = { arrays: [], 'tanstack-db': [] };
    for (let run = 0; run < runs; run++) {
      for (const variant of ['arrays', 'tanstack-db'] as const) {
        sides[variant].push(await runSide(variant, file));
      }
      const [plain, db] = [sides.arrays[run]!, sides['tanstack-db'][run]!];
      if (plain.counts.join() !== db.counts.join())
        throw new Error(`the sides disagree: ${plain.counts.join()} / ${db.counts.join()}`);
      if (run === 0) {
        const typed = TYPED.map((text) => text || '∅').join(' ');
        console.log(`matches per text (${typed}): ${plain.counts.join(' ')}`);
      }
      if (runs > 1)
        console.log(`run ${run + 1}: ${JSON.stringify({ arrays: plain, db }, figures)}`);
    }
    // Each figure's median over the runs (one run: its figure).
    const of = (variant: Variant) => {
      const pick = (key: Exclude<keyof Side, 'counts'>, digits: number) =>
        round(median(sides[variant].map((side) => side[key])), digits);
      return {
        collection_ms: pick('collectionMs', 0),
        catalogue_ms: pick('catalogueMs', 0),
        rows_mb: pick('rowsMb', 1),
        collection_mb: pick('collectionMb', 1),
        heap_mb: pick('heapMb', 1),
        keystroke_ms: pick('keystrokeMs', 2),
        first_key_ms: pick('firstKeyMs', 2),
        other_keystroke_ms: pick('otherKeystrokeMs', 2),
        row_change_ms: pick('rowChangeMs', 2),
      };
    };
    console.table({ arrays: of('arrays'), 'tanstack-db': of('tanstack-db') });
    console.log(
      'other_keystroke_ms: arrays = applyCatalogueSearch with no memory; tanstack-db = ilike on the raw rows (m..maho)',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A run's figures rounded for its line (`counts` left out). */
const figures = (key: string, value: unknown) =>
  key === 'counts' ? undefined : typeof value === 'number' ? round(value, 1) : value;

await main();
