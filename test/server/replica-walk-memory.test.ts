import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningAppServer } from '../../src/server/app-server';
import { startAppOver, startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { documentedListingRow } from '../support/listing-rows';

/**
 * The replica's fill stores each page as it comes, so a walk holds no page it has stored: a store
 * of many large pages (or an upstream that serves them on purpose, up to the walk's 2,000-page
 * budget of up to 32 MB each) must not be held in memory all at once until the walk ends. The
 * walk kept every row it had yielded, for the partial of a walk stopped later, which the replica
 * never reads: 40 pages of 1 MB grew the heap by the 40 MB.
 */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const PAGES = 40;
const ROWS = 250;
const DESCRIPTION = 'x'.repeat(4_000);
let upstream: FakeUpstream;
let app: RunningAppServer;
/** The heap in use (after a collection) as each listings page was asked for. */
const heapAt: number[] = [];

beforeAll(async () => {
  upstream = await startFakeUpstream((req, res) => {
    const url = new URL(req.url ?? '/', upstream.url);
    const json = (body: unknown, next?: string) =>
      res
        .writeHead(200, {
          'content-type': 'application/json',
          'x-service-api-call-limit': '1/40',
          ...(next ? { link: `<${next}>; rel="next"` } : {}),
        })
        .end(JSON.stringify(body));
    const collection = /\/2026-07\/(\w+)\.json$/.exec(url.pathname)?.[1] ?? '';
    if (collection !== 'listings') return json({ [collection]: [] });
    const page = Number(url.searchParams.get('page_info') ?? '0');
    gc();
    heapAt[page] = process.memoryUsage().heapUsed;
    const listings = Array.from({ length: ROWS }, (_, i) => ({
      ...documentedListingRow,
      id: `lst_${page}_${i}`,
      description: `${DESCRIPTION}${page}_${i}`,
    }));
    const next =
      page + 1 < PAGES ? `${upstream.url}/2026-07/listings.json?page_info=${page + 1}` : undefined;
    json({ listings }, next);
  });
  app = await startAppOver(upstream.url, 'svc_live_WalkMemoryKey000000000001');
});

afterAll(async () => {
  await app?.close();
  await upstream?.close();
});

describe('a fill of many large pages', () => {
  it('holds no page it has stored: the heap does not grow with the pages read', async () => {
    await app.replica.ready(['listings']);
    expect(app.replica.store.count('listings')).toBe(PAGES * ROWS);
    // 40 pages of 1 MB of descriptions: held, they would be 30 MB more by the last page than by the
    // fifth; stored and let go, the heap stays within a few MB.
    const grown = heapAt[PAGES - 1]! - heapAt[5]!;
    expect(grown).toBeLessThan(10 * 1024 * 1024);
  });
});
