import { expect, test } from '@playwright/test';
import { buildFiles, readManifest, staticScripts } from './build-manifest';
import { untilKeptOffline } from './support';

// This suite is about the service worker: the config blocks it for every other suite.
test.use({ serviceWorkers: 'allow' });

const OVERVIEW = 'src/features/overview/overview-page.tsx';
/** The shell's parts every page starts after its first paint or first reads (`api/first-reads.ts`). */
const AFTER_FIRST_PAINT = [
  'src/app/service-worker.ts',
  'src/app/live-updates.tsx',
  'src/app/offline-status.tsx',
  'src/features/show/sold-online/sold-online-alerts.tsx',
];

/** The files a first visit to the overview may fetch: the shell, the page's own, the reader's. */
function allowedFiles(): Set<string> {
  const manifest = readManifest();
  const scripts = [
    ...staticScripts(manifest, 'index.html'),
    ...staticScripts(manifest, OVERVIEW),
    ...AFTER_FIRST_PAINT.flatMap((key) => staticScripts(manifest, key)),
  ];
  // Scan, kept at install: its dialog, the reader's loader (the chunk that loads the polyfill,
  // shared by the scanners) and what it loads.
  const loader = Object.values(manifest).find((chunk) =>
    chunk.dynamicImports?.some((key) => key.includes('barcode-detector')),
  )!;
  const reader = [
    ...staticScripts(manifest, 'src/features/show/scan/scan-dialog.tsx'),
    loader.file,
    ...(loader.dynamicImports ?? []).flatMap((key) => staticScripts(manifest, key)),
  ];
  const styles = Object.values(manifest)
    .filter((chunk) => scripts.includes(chunk.file) || reader.includes(chunk.file))
    .flatMap((chunk) => chunk.css ?? []);
  const wasm = buildFiles(manifest).filter((file) => file.endsWith('.wasm'));
  // What the shell's code fetches by its address: the number formats' worker (main.tsx).
  const shellAssets = manifest['index.html']?.assets ?? [];
  return new Set(
    [...scripts, ...reader, ...styles, ...wasm, ...shellAssets].map((file) => `/${file}`),
  );
}

test('a first visit fetches only the files its page uses, the shell and the reader; the rest once the page is idle', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const context = await browser.newContext();
  // When the page tells the worker it is idle (its clock, the same as the requests' timings).
  await context.addInitScript(() => {
    const post = ServiceWorker.prototype.postMessage;
    ServiceWorker.prototype.postMessage = function (this: ServiceWorker, ...args: unknown[]) {
      if ((args[0] as { type?: string } | null)?.type === 'page-idle') {
        (window as { idleAt?: number }).idleAt ??= Date.now();
      }
      return (post as (...rest: unknown[]) => void).apply(this, args);
    };
  });
  const fetched: { path: string; at: number; byWorker: boolean }[] = [];
  let wasmEncoding: string | undefined;
  context.on('requestfinished', (request) => {
    const url = new URL(request.url());
    if (!url.pathname.startsWith('/assets/')) return;
    fetched.push({
      path: url.pathname,
      at: request.timing().startTime,
      byWorker: request.serviceWorker() !== null,
    });
    if (url.pathname.endsWith('.wasm') && request.serviceWorker()) {
      void request.response().then((response) => {
        wasmEncoding = response?.headers()['content-encoding'];
      });
    }
  });
  const page = await context.newPage();
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  await untilKeptOffline(page);
  const idleAt = await page.evaluate(() => (window as { idleAt?: number }).idleAt);
  expect(idleAt).toBeDefined();

  const allowed = allowedFiles();
  const beforeIdle = fetched.filter((file) => file.at < idleAt!).map((file) => file.path);
  expect(beforeIdle.length).toBeGreaterThan(0);
  expect(beforeIdle.filter((path) => !allowed.has(path))).toEqual([]);
  // The worker kept the reader at install, its wasm sent precompressed.
  expect(fetched.some((file) => file.byWorker && file.path.endsWith('.wasm'))).toBe(true);
  await expect.poll(() => wasmEncoding).toBe('br');
  // Once idle, the worker kept the other pages' files too (untilKeptOffline waited for them).
  const later = fetched.filter((file) => file.at >= idleAt!);
  expect(later.some((file) => /\/orders-page-[\w-]+\.js$/.test(file.path))).toBe(true);
  await context.close();
});
