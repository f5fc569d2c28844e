import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { build } from 'vite';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../src/sandbox';
import { startAppServer, type AppServerOptions } from '../src/server/app-server';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test/e2e/chromium';

let built: Promise<string> | undefined;

/**
 * The dashboard's production bundle in a temporary folder: built once per run of the benches
 * (they all measure the same source), not once per bench; `SLABDESK_BENCH_DIST` names one built.
 */
export function buildDashboard(): Promise<string> {
  // CI hands over the bundle the browser suite just built from the same source.
  const given = process.env.SLABDESK_BENCH_DIST;
  built ??= given ? Promise.resolve(resolve(given)) : buildInto();
  return built;
}

/** The production bundle of the checkout at `root` (this one by default) in a temporary folder. */
export async function buildInto(root = resolve(import.meta.dirname, '..')): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'slabdesk-bench-dist-'));
  await build({ root, logLevel: 'warn', build: { outDir, emptyOutDir: true, sourcemap: false } });
  return outDir;
}

/** Debian's Chromium with this machine's flags. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

type PageSource = Parameters<typeof startAppServer>[1];

export interface DemoBrowser {
  outDir: string;
  sandbox: RunningSandbox;
  browser: Browser;
}

/** The bundle built, a demo sandbox and Chromium started for `body`, and both stopped after. */
export async function withDemoBrowser<T>(
  options: SandboxOptions,
  body: (setup: DemoBrowser) => Promise<T>,
): Promise<T> {
  const outDir = await buildDashboard();
  const sandbox = await startSandbox({ port: 0, db: ':memory:', seed: 'demo', ...options });
  const browser = await launchChromium();
  try {
    return await body({ outDir, sandbox, browser });
  } finally {
    await browser.close();
    await sandbox.close();
  }
}

/**
 * A seller's visit: our server with `upstream`'s key, serving `pages`, and a fresh desktop
 * context (CSP bypassed: the measuring scripts are strings evaluated in the page). `server` adds
 * the server's other options (say, the hub registered with the sandbox as `npm run dev` does).
 */
export async function withVisit<T>(
  browser: Browser,
  upstream: { baseUrl: string; apiKey: string },
  pages: PageSource,
  body: (page: Page, appUrl: string) => Promise<T>,
  server: Omit<AppServerOptions, 'upstream' | 'port'> = {},
): Promise<T> {
  const app = await startAppServer({ ...server, upstream, port: 0 }, pages);
  const context = await browser.newContext({
    // A seller's first visit: no service worker answering in place of the server (as the browser suite).
    serviceWorkers: 'block',
    viewport: { width: 1280, height: 800 },
    bypassCSP: true,
  });
  try {
    return await body(await context.newPage(), app.url);
  } finally {
    await context.close();
    await app.close();
  }
}
