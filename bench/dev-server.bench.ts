import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { launchChromium } from './browser-setup';
import { median, round, type Bench } from './bench-api';
import { sized } from './quick';

const root = resolve(import.meta.dirname, '..');
/** Vite's dependency pre-bundling cache: deleted for the cold figure. */
const viteDeps = join(root, 'node_modules/.vite/deps');
const FIRST_ROW = 'table.data-table tbody tr:not(.spacer)';
const RUNS = sized(3, 1);

/** `npm run dev` or `npm start` on its embedded sandbox, its stores in `folder`; its URL once ready. */
async function startServer(
  command: 'dev' | 'start',
  folder: string,
): Promise<{ child: ChildProcess; url: string; readyMs: number }> {
  const started = performance.now();
  const args =
    command === 'dev'
      ? [join(root, 'node_modules/.bin/tsx'), 'src/main/dev.ts']
      : [process.execPath, 'dist/server.js'];
  const child = spawn(args[0]!, [...args.slice(1), '--port', '0'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      SLABDESK_SANDBOX_DB: ':memory:',
      SLABDESK_USERS_DB: join(folder, 'users.db'),
      SLABDESK_ACTIVITY_DB: join(folder, 'activity.db'),
      SLABDESK_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((done, fail) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = /ready: (http:\/\/\S+?)\/?\s/.exec(output)?.[1];
      if (found) done(found);
    });
    child.once('exit', (code) => fail(new Error(`the server exited (${code}): ${output}`)));
  });
  return { child, url, readyMs: performance.now() - started };
}

/**
 * A fresh server and a fresh browser: milliseconds from navigation to /listings to its first
 * row drawn (timed here, not in the page: Vite may reload the page once on a cold cache).
 */
async function firstListings(command: 'dev' | 'start'): Promise<{ ms: number; readyMs: number }> {
  const folder = mkdtempSync(join(tmpdir(), 'slabdesk-bench-dev-'));
  const { child, url, readyMs } = await startServer(command, folder);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const started = performance.now();
    await page.goto(`${url}/listings`);
    await page.locator(FIRST_ROW).first().waitFor({ timeout: 120_000 });
    return { ms: performance.now() - started, readyMs };
  } finally {
    await browser.close();
    child.kill('SIGTERM');
    await new Promise((done) => child.once('exit', done));
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * A cold Listings on `npm run dev` against the same on `npm start` (the production build), each
 * the first page of a fresh server in a fresh browser, timed from navigation (the server ready).
 * The dev figure is the cold cache's (Vite's `node_modules/.vite/deps` deleted first); the warm
 * cache's is its own figure, and so is the cold dev server's time from start to ready. Medians
 * of three.
 */
const bench: Bench = {
  figures: [
    'ui.dev_first_listings_ms',
    'ui.dev_first_listings_warm_cache_ms',
    'ui.prod_first_listings_ms',
    'ui.dev_first_page_ratio',
    'ui.dev_ready_cold_cache_ms',
  ],
  async run(report) {
    // Pages already built (CI's, from the browser suite) are kept: only the server's bundle is
    // added, so a bench in the other lane never finds dist/page emptied by a second build.
    if (!existsSync(join(root, 'dist/page/index.html'))) {
      spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    } else if (!existsSync(join(root, 'dist/server.js'))) {
      spawnSync('npm', ['run', 'build:server'], { cwd: root, stdio: 'inherit' });
    }
    const prod: number[] = [];
    const cold: number[] = [];
    const coldReady: number[] = [];
    const warm: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      prod.push((await firstListings('start')).ms);
      rmSync(viteDeps, { recursive: true, force: true });
      const first = await firstListings('dev');
      cold.push(first.ms);
      coldReady.push(first.readyMs);
      warm.push((await firstListings('dev')).ms);
    }
    report('ui.prod_first_listings_ms', Math.round(median(prod)));
    report('ui.dev_first_listings_ms', Math.round(median(cold)));
    report('ui.dev_ready_cold_cache_ms', Math.round(median(coldReady)));
    report('ui.dev_first_listings_warm_cache_ms', Math.round(median(warm)));
    report('ui.dev_first_page_ratio', round(median(cold) / median(prod), 2));
  },
};

export default bench;
