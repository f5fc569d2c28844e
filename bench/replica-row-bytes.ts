import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DEMO_LIVE_TOKEN, startSandbox } from '../src/sandbox';
import { LeakyBuckets } from '../src/sandbox/platform/leaky-bucket';
import { startAppServer, type PageSource } from '../src/server/app-server';

/**
 * The figures behind docs/scale.md: bytes per row of each collection as the API sends it (page
 * size 250) and as the hub's replica keeps it on disk, from the sandbox's demo store.
 * `npx tsx bench/replica-row-bytes.ts [listings]` (default 2,000; the bucket is off).
 */
const LISTINGS = Number(process.argv[2] ?? 2_000);
const PAGED = ['listings', 'orders', 'inventory_items', 'inventory_levels'] as const;

const noPages = async (): Promise<PageSource> => ({
  development: false,
  register: async () => {},
  pageHtml: async () => null,
});

async function main(): Promise<void> {
  const sandbox = await startSandbox({
    port: 0,
    db: ':memory:',
    seed: 'demo',
    demoListings: LISTINGS,
  });
  sandbox.context.buckets = new LeakyBuckets(false);
  const dir = mkdtempSync(join(tmpdir(), 'slabdesk-scale-'));
  const replicaPath = join(dir, 'replica.db');
  try {
    for (const collection of PAGED) {
      let url: string | undefined = `${sandbox.url}/2026-07/${collection}.json?limit=250`;
      let rows = 0;
      let bytes = 0;
      let pages = 0;
      while (url) {
        const response: Response = await fetch(url, {
          headers: { 'X-Service-Access-Token': DEMO_LIVE_TOKEN },
        });
        const body = await response.text();
        if (!response.ok) throw new Error(`${url}: ${response.status} ${body.slice(0, 200)}`);
        const parsed = JSON.parse(body) as Record<string, unknown[]>;
        const list = Object.values(parsed)[0] ?? [];
        pages++;
        rows += list.length;
        bytes += list.reduce<number>((sum, row) => sum + Buffer.byteLength(JSON.stringify(row)), 0);
        const next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '');
        url = next?.[1];
      }
      console.log(
        `api.${collection}: rows ${rows}, pages ${pages}, json_bytes_per_row ${rows ? Math.round(bytes / rows) : 0}`,
      );
    }
    const app = await startAppServer(
      {
        upstream: { baseUrl: sandbox.url, apiKey: DEMO_LIVE_TOKEN },
        port: 0,
        activity: { path: ':memory:' },
        replica: { path: replicaPath },
      },
      noPages,
    );
    const started = performance.now();
    await app.replica.ready();
    const fillMs = performance.now() - started;
    const status = app.replica.status();
    await app.close();
    const db = new Database(replicaPath);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.exec('VACUUM');
    const perCollection = db
      .prepare(
        'SELECT collection, COUNT(*) AS n, SUM(LENGTH(body)) AS body FROM replica_rows GROUP BY collection',
      )
      .all() as { collection: string; n: number; body: number }[];
    db.close();
    const total = perCollection.reduce((sum, row) => sum + row.n, 0);
    for (const row of perCollection) {
      console.log(
        `replica.${row.collection}: rows ${row.n}, body_bytes_per_row ${Math.round(row.body / row.n)}`,
      );
    }
    const fileBytes = statSync(replicaPath).size;
    console.log(
      `replica.file: rows ${total}, bytes ${fileBytes}, bytes_per_row ${Math.round(fileBytes / total)}, change ${status.changeNumber}, fill_ms_bucket_off ${Math.round(fillMs)}`,
    );
  } finally {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
