import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { demoDashboard } from './fresh-visit';
import { CHROMIUM_PATH } from '../test/e2e/chromium';
const app = await demoDashboard(process.env.DIST!, { gzipLoopback: true });
const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu'] });
const out: string[] = [];
for (let i = 0; i < Number(process.env.N ?? 3); i++) {
  const r = await lighthouse(`${app.url}${process.env.PAGE ?? '/listings'}`, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
  const a = r!.lhr.audits;
  const lcpEl = (a['largest-contentful-paint-element']?.details as any)?.items?.[0]?.items?.[0]?.node?.selector ?? '?';
  out.push(`${r!.lhr.categories.performance!.score} fcp ${Math.round(a['first-contentful-paint']!.numericValue!)} lcp ${Math.round(a['largest-contentful-paint']!.numericValue!)} tbt ${Math.round(a['total-blocking-time']!.numericValue!)} si ${Math.round(a['speed-index']!.numericValue!)} el ${lcpEl}`);
  console.log(out[out.length - 1]);
  if (process.env.DETAILS) for (const id of process.env.DETAILS.split(',')) console.log(id, JSON.stringify((a as any)[id]?.details?.items ?? null).slice(0, 2500));
}
await chrome.kill(); await app.close();
