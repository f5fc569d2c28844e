import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { demoDashboard } from './fresh-visit';
import { round, type Bench } from './bench-api';
import { buildDashboard, launchChromium } from './browser-setup';

/** The JavaScript the first page (the overview) loads, gzipped: every script it fetches. */
const bench: Bench = {
  figures: ['ui.first_load_js_gz_kb'],
  async run(report) {
    const outDir = await buildDashboard();
    const app = await demoDashboard(outDir);
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      const scripts = new Set<string>();
      page.on('response', (response) => {
        if (response.request().resourceType() === 'script')
          scripts.add(new URL(response.url()).pathname);
      });
      await page.goto(`${app.url}/`);
      await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
      await page.waitForLoadState('networkidle');
      let bytes = 0;
      for (const path of scripts) {
        const size = gzipSync(readFileSync(join(outDir, path))).length;
        if (process.env.BENCH_VERBOSE) console.log(`  ${path} ${size}`);
        bytes += size;
      }
      report('ui.first_load_js_gz_kb', round(bytes / 1024, 1));
    } finally {
      await browser.close();
      await app.close();
    }
  },
};

export default bench;
