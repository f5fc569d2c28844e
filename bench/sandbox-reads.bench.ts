import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startSandbox, DEMO_LIVE_TOKEN } from '../src/sandbox';
import { percentile, round, type Bench } from './bench-api';
import type { LoadJob, LoadResult } from './load-worker';
import { sized } from './quick';

/** Runs a load job in a child process, so the load generator and the server have a core each. */
export function load(job: LoadJob): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL('./load-worker.ts', import.meta.url)), {
      execArgv: ['--import', 'tsx'],
    });
    child.once('message', (result) => resolve(result as LoadResult));
    child.once('error', reject);
    child.send(job);
  });
}

/** Each load's length in seconds (a quick run: one). */
const SECONDS = sized(5, 1);

const bench: Bench = {
  figures: [
    'sandbox.read_single.rps',
    'sandbox.read_single.p99_ms',
    'sandbox.page250.rps',
    'sandbox.page250.p99_ms',
  ],
  async run(report) {
    // A 10,000-listing store; the bucket is off (SANDBOX_RATE_LIMIT=off), for benchmarks only.
    const sandbox = await startSandbox({
      port: 0,
      db: ':memory:',
      seed: 'demo',
      demoListings: sized(10_000, 600),
      rateLimit: false,
    });
    try {
      const headers = { 'X-Service-Access-Token': DEMO_LIVE_TOKEN };
      const ids: string[] = [];
      let url: string | undefined = `${sandbox.url}/2026-07/listings.json?limit=250&fields=id`;
      while (url && ids.length < 2000) {
        const response: Response = await fetch(url, { headers });
        ids.push(
          ...((await response.json()) as { listings: { id: string }[] }).listings.map((l) => l.id),
        );
        url = /<([^>]+)>; rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
      }
      const singles = ids.map((id) => `${sandbox.url}/2026-07/listings/${id}.json`);
      await load({ urls: singles, headers, concurrency: 8, seconds: 1 }); // warm-up
      const single = await load({ urls: singles, headers, concurrency: 16, seconds: SECONDS });
      if (single.errors > 0) throw new Error(`${single.errors} single reads failed`);
      report('sandbox.read_single.rps', round(single.requests / single.seconds, 0));
      report('sandbox.read_single.p99_ms', round(percentile(single.latenciesMs, 99)));

      const pageUrl = [`${sandbox.url}/2026-07/listings.json?limit=250`];
      await load({ urls: pageUrl, headers, concurrency: 1, seconds: 1 });
      const pages = await load({ urls: pageUrl, headers, concurrency: 1, seconds: SECONDS });
      if (pages.errors > 0) throw new Error(`${pages.errors} page reads failed`);
      report('sandbox.page250.rps', round(pages.requests / pages.seconds, 0));
      report('sandbox.page250.p99_ms', round(percentile(pages.latenciesMs, 99)));
    } finally {
      await sandbox.close();
    }
  },
};

export default bench;
