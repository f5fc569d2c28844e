import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { demoDashboard } from './fresh-visit';
import { API_VERSION } from '../src/client';
import { CHROMIUM_PATH } from '../test/e2e/chromium';
import { median, round, type Bench } from './bench-api';
import { buildDashboard } from './browser-setup';
import { QUICK, sized } from './quick';

/** The pages with a budget; an order's page is the demo's first order. */
const PAGES = ['overview', 'listings', 'orders', 'order'] as const;
type PageName = (typeof PAGES)[number];
const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
const METRICS = [
  'first-contentful-paint',
  'largest-contentful-paint',
  'total-blocking-time',
  'speed-index',
  'cumulative-layout-shift',
  'interactive',
];

/**
 * Runs of each page: a run's scores vary (its trace is one real load on a busy machine: the same
 * build scored 0.85 to 0.97 on the listings page), the median of five less than that of three.
 */
const RUNS = sized(5, 1);

/** The demo's first order, read through the dashboard's own API proxy. */
async function firstOrderPath(appUrl: string): Promise<string> {
  const response = await fetch(`${appUrl}/api/${API_VERSION}/orders.json?status=any&limit=1`);
  const { orders } = (await response.json()) as { orders?: { id: string }[] };
  const id = orders?.[0]?.id;
  if (!id) throw new Error(`No demo order to open (${response.status})`);
  return `/orders/${encodeURIComponent(id)}`;
}

/**
 * Lighthouse 12 with its defaults (mobile, simulated throttling) on the production build, against
 * the overview, listings, orders and an order's page on the demo sandbox, each page `RUNS` times.
 * Each category's figure is the lowest of the pages' medians, each page's performance median is
 * reported beside it, and so is the overview's cumulative layout shift (its largest run).
 * `BENCH_PAGES=listings,order` measures only those pages and reports only their own figures.
 */
const bench: Bench = {
  figures: [
    'ui.lighthouse.performance',
    'ui.lighthouse.accessibility',
    'ui.lighthouse.best_practices',
    'ui.lighthouse.overview_cls',
    ...PAGES.map((name) => `ui.lighthouse.${name}_performance`),
  ],
  async run(report) {
    const outDir = await buildDashboard();
    // Lighthouse simulates a phone on a mobile network: the server answers it as it answers a
    // browser on another machine (API answers gzipped), not as one on this machine, where it
    // leaves them unpacked because loopback bytes cost nothing to move.
    const app = await demoDashboard(outDir, { gzipLoopback: true });
    const chrome = await chromeLauncher.launch({
      chromePath: CHROMIUM_PATH,
      chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu'],
    });
    try {
      const lowest: Record<string, number> = {};
      let overviewCls = 0;
      // A quick run audits one page: enough to prove the audit still runs to its end.
      const only = process.env.BENCH_PAGES?.split(',') ?? (QUICK ? ['listings'] : undefined);
      const paths: Record<PageName, () => Promise<string>> = {
        overview: async () => '/',
        listings: async () => '/listings',
        orders: async () => '/orders',
        order: () => firstOrderPath(app.url),
      };
      for (const name of PAGES.filter((page) => !only || only.includes(page))) {
        const path = await paths[name]();
        const scores: Record<string, number[]> = {};
        for (let run = 0, failed = 0; run < RUNS; run++) {
          const result = await lighthouse(`${app.url}${path}`, {
            port: chrome.port,
            output: 'json',
            logLevel: 'error',
            onlyCategories: [...CATEGORIES],
          });
          if (!result) throw new Error(`Lighthouse returned nothing for ${path}`);
          // A run Lighthouse could not finish measures nothing: it is told and made again (once).
          const error = result.lhr.runtimeError;
          if (error) {
            console.log(`  ${name} run ${run + 1} failed: ${error.code} ${error.message}`);
            if (++failed > 1) throw new Error(`Lighthouse failed twice on ${path}: ${error.code}`);
            run--;
            continue;
          }
          const { categories, audits } = result.lhr;
          for (const category of CATEGORIES) {
            const score = categories[category]?.score ?? 0;
            (scores[category] ??= []).push(score);
            if (process.env.BENCH_VERBOSE) {
              const failing = Object.values(audits)
                .filter((audit) => audit.score !== null && audit.score < 1)
                .map((audit) => `${audit.id} ${audit.score} ${audit.displayValue ?? ''}`);
              console.log(`  ${name} ${category} ${score}`);
              if (category === 'performance') {
                for (const id of METRICS) {
                  const audit = audits[id];
                  console.log(`    ${id} ${audit?.displayValue ?? ''} (${audit?.score})`);
                }
              }
              if (category === 'accessibility') console.log(`    ${failing.join('\n    ')}`);
            }
          }
          if (process.env.BENCH_DETAILS) {
            for (const id of process.env.BENCH_DETAILS.split(',')) {
              console.log(id, JSON.stringify(audits[id]?.details ?? null).slice(0, 3000));
            }
          }
          if (name === 'overview') {
            const cls = audits['cumulative-layout-shift']?.numericValue ?? Number.NaN;
            overviewCls = Math.max(overviewCls, cls);
          }
        }
        for (const category of CATEGORIES) {
          const middle = median(scores[category]!);
          console.log(`  (${name} ${category}: ${scores[category]!.join(', ')})`);
          lowest[category] = Math.min(lowest[category] ?? 1, middle);
        }
        report(`ui.lighthouse.${name}_performance`, round(median(scores.performance!), 2));
      }
      // The figures over every page only when every page ran.
      if (only) return;
      report('ui.lighthouse.overview_cls', round(overviewCls, 3));
      report('ui.lighthouse.performance', round(lowest.performance!, 2));
      report('ui.lighthouse.accessibility', round(lowest.accessibility!, 2));
      report('ui.lighthouse.best_practices', round(lowest['best-practices']!, 2));
    } finally {
      await chrome.kill();
      await app.close();
    }
  },
};

export default bench;
