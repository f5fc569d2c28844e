import { chromium, type Browser, type Page } from '@playwright/test';
import { DEMO_LIVE_TOKEN } from '../src/sandbox';
import { startAppServer } from '../src/server/app-server';
import { distPages } from '../src/server/dist-pages';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildFiles } from '../test/e2e/build-manifest';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test/e2e/chromium';
import { barcodeLabel, blankFrame, writeY4m, type Clip } from '../test/e2e/scan-labels';
import { median, round, type Bench } from './bench-api';
import { withDemoBrowser } from './browser-setup';
import { sized } from './quick';

const RUNS = sized(5, 1);
const STACK = sized(20, 5);
/** Grey before the first label: the scanner is open and its reader loaded before a label shows. */
const LEAD_IN_S = 4;

/**
 * Marks the page sets on itself (performance.now()): `pressAt` when the seller's press of Scan
 * reached the page (the event's own time), `labelAt` when the camera's picture turns
 * from the grey lead-in to a label (read off the video frames as they are shown), `counterAt`
 * when the counter view is drawn, `bulkAt` when the bulk editor's grid is. With `openAt`, the
 * page presses "Open ... in the bulk editor" itself once the stack holds that many (a seller's
 * tap, without the test tool's polling in the figure). A string: tsx would wrap named functions.
 */
const MARKS = (openAt: number) => `
  window.__scan = {};
  const marks = window.__scan;
  document.addEventListener('click', (event) => {
    if (marks.pressAt === undefined && event.target.closest?.('.scan-button')) marks.pressAt = event.timeStamp;
  }, true);
  const watch = (video) => {
    if (video.__watched) return;
    video.__watched = true;
    const canvas = document.createElement('canvas');
    canvas.width = 64;
    canvas.height = 48;
    const context = canvas.getContext('2d', { willReadFrequently: true });
    let sawBlank = false;
    const onFrame = (now) => {
      if (!video.isConnected || marks.labelAt !== undefined) return;
      context.drawImage(video, 0, 0, 64, 48);
      const data = context.getImageData(0, 0, 64, 48).data;
      let sum = 0, squares = 0;
      for (let i = 0; i < data.length; i += 4) { sum += data[i]; squares += data[i] * data[i]; }
      const count = data.length / 4;
      const variance = squares / count - (sum / count) ** 2;
      if (variance < 100) sawBlank = true;
      else if (sawBlank) marks.labelAt = now;
      video.requestVideoFrameCallback(onFrame);
    };
    video.requestVideoFrameCallback(onFrame);
  };
  const drawn = (name) => {
    if (marks[name] !== undefined) return;
    marks[name] = null;
    requestAnimationFrame(() => { marks[name] = performance.now(); });
  };
  const check = () => {
    const video = document.querySelector('.camera-scanner video');
    if (video) watch(video);
    const scanner = document.querySelector('.camera-scanner');
    if (scanner?.dataset.engine && marks.readerAt === undefined) marks.readerAt = performance.now();
    if (scanner?.dataset.camera === 'running' && marks.cameraAt === undefined) marks.cameraAt = performance.now();
    if (document.querySelector('.counter-facts')) drawn('counterAt');
    if (document.querySelector('table[aria-label^="Bulk edit grid"]')) drawn('bulkAt');
    if (${openAt} > 0 && !marks.opened) {
      const heading = [...document.querySelectorAll('h3')].find((h) => h.textContent === 'In the stack: ${openAt} slabs');
      const open = [...document.querySelectorAll('button')].find((b) => /in the bulk editor$/.test(b.textContent) && !b.disabled);
      if (heading && open) { marks.opened = true; open.click(); }
    }
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['data-camera', 'data-engine'] });
`;

interface Marks {
  pressAt?: number;
  /** The camera and the reader both ready, then the picture playing (the scanner's attributes). */
  readerAt?: number;
  cameraAt?: number;
  labelAt?: number;
  counterAt?: number;
  bulkAt?: number;
}

/**
 * A phone whose camera plays `clip`, on the app with its catalogue read whole; Scan pressed.
 * `offline` (the build's files): after that first visit the worker has kept every one of them,
 * the network is cut and the page reloaded from the worker, as at a hall with no signal.
 */
async function withCameraPage<T>(
  clip: Clip,
  appUrl: string,
  marks: string,
  body: (page: Page) => Promise<T>,
  offline?: readonly string[],
): Promise<T> {
  const file = writeY4m(clip);
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: [
        ...CHROMIUM_ARGS,
        '--use-fake-device-for-media-stream',
        '--use-fake-ui-for-media-stream',
        `--use-file-for-fake-video-capture=${file}`,
      ],
    });
    const context = await browser.newContext({
      // A phone: its screen, and touch (Scan is got ready on a touch device).
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      permissions: ['camera'],
      // The measuring scripts are strings evaluated in the page (the app's CSP has no eval).
      bypassCSP: true,
    });
    const page = await context.newPage();
    await page.addInitScript({ content: marks });
    // The catalogue read whole first: a seller at a show has it kept already.
    await page.goto(`${appUrl}/listings`);
    await page.getByText(/^\d+ of \d+ listings/).waitFor({ timeout: 60_000 });
    if (offline) {
      await untilKept(page, offline);
      await context.setOffline(true);
      await page.reload();
      await page.getByText(/^\d+ of \d+ listings/).waitFor({ timeout: 60_000 });
    }
    await page.getByRole('button', { name: 'Scan', exact: true }).click();
    return await body(page);
  } finally {
    await browser?.close();
  }
}

/** The worker controls the page and has kept a page and every file of the build (a string: see MARKS). */
const keptForOffline = (files: readonly string[]) => `(async () => {
  if (!navigator.serviceWorker.controller) return false;
  if ((await (await caches.open('slabdesk-pages')).keys()).length === 0) return false;
  for (const path of ${JSON.stringify(files)}) if (!(await caches.match('/' + path))) return false;
  return true;
})()`;

/** Polls until the worker has kept the app (an evaluation awaits its promise; a wait would not). */
async function untilKept(page: Page, files: readonly string[]): Promise<void> {
  const until = Date.now() + 60_000;
  while (!((await page.evaluate(keptForOffline(files))) as boolean)) {
    if (Date.now() > until) throw new Error('the worker did not keep the app for offline');
    await page.waitForTimeout(250);
  }
}

/** From the press of Scan (camera start included) to the counter view drawn, a label in view. */
async function pressToCounter(
  appUrl: string,
  cert: string,
  offline?: readonly string[],
): Promise<number> {
  const clip: Clip = [{ frame: barcodeLabel(cert), seconds: 4 }];
  return withCameraPage(
    clip,
    appUrl,
    MARKS(0),
    async (page) => {
      await page.waitForFunction('typeof window.__scan.counterAt === "number"', undefined, {
        timeout: 30_000,
      });
      const marks = (await page.evaluate('window.__scan')) as Marks;
      if (marks.pressAt === undefined) throw new Error('the press of Scan was not seen');
      const after = (at: number | undefined) =>
        at === undefined ? '?' : `${Math.round(at - marks.pressAt!)} ms`;
      // Where the time went, for the reader of the run (not a figure).
      console.log(
        `  (${offline ? 'offline' : 'online'}: camera and reader ready ${after(marks.readerAt)}, camera running ${after(marks.cameraAt)}, counter view ${after(marks.counterAt)})`,
      );
      return marks.counterAt! - marks.pressAt;
    },
    offline,
  );
}

const bench: Bench = {
  figures: [
    'scan.to_counter_view_ms',
    'scan.press_to_counter_ms',
    'scan.press_to_counter_offline_ms',
    'scan.batch_20_ms',
  ],
  async run(report) {
    await withDemoBrowser({}, async ({ outDir, sandbox }) => {
      const app = await startAppServer(
        { upstream: { baseUrl: sandbox.url, apiKey: DEMO_LIVE_TOKEN }, port: 0 },
        async () => distPages(outDir),
      );
      try {
        const response = await fetch(
          `${sandbox.url}/2026-07/listings.json?limit=100&status=active`,
          {
            headers: { 'X-Service-Access-Token': DEMO_LIVE_TOKEN },
          },
        );
        const { listings } = (await response.json()) as {
          listings: { id: string; card: { cert_number: string } }[];
        };
        const certs = [...new Set(listings.map((row) => row.card.cert_number))];
        if (certs.length < Math.max(RUNS, STACK)) throw new Error('too few demo listings');

        // One slab: the label enters the view, the counter view is drawn.
        const toCounter: number[] = [];
        for (let run = 0; run < RUNS; run++) {
          const clip: Clip = [
            { frame: blankFrame(), seconds: LEAD_IN_S },
            { frame: barcodeLabel(certs[run]!), seconds: 4 },
          ];
          toCounter.push(
            await withCameraPage(clip, app.url, MARKS(0), async (page) => {
              await page.waitForFunction('typeof window.__scan.counterAt === "number"', undefined, {
                timeout: 30_000,
              });
              const marks = (await page.evaluate('window.__scan')) as Marks;
              if (marks.labelAt === undefined || marks.counterAt! < marks.labelAt) {
                throw new Error('the label was not seen entering the view before the scan');
              }
              return marks.counterAt! - marks.labelAt;
            }),
          );
        }
        report('scan.to_counter_view_ms', round(median(toCounter), 0));

        // From the press of Scan, the camera started with a label already in front of it: online
        // (a first visit), then offline (the app and its reader from the worker).
        const files = buildFiles(
          JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Parameters<
            typeof buildFiles
          >[0],
        ).filter((file) => !file.endsWith('.html'));
        for (const offline of [undefined, files]) {
          const times: number[] = [];
          for (let run = 0; run < RUNS; run++) {
            times.push(await pressToCounter(app.url, certs[run]!, offline));
          }
          report(
            offline ? 'scan.press_to_counter_offline_ms' : 'scan.press_to_counter_ms',
            round(median(times), 0),
          );
        }

        // A stack: each label in turn, then the bulk editor opened on them.
        const clip: Clip = [
          { frame: blankFrame(), seconds: LEAD_IN_S },
          ...certs.slice(0, STACK).map((cert) => ({ frame: barcodeLabel(cert), seconds: 0.6 })),
        ];
        const batch = await withCameraPage(clip, app.url, MARKS(STACK), async (page) => {
          await page.getByRole('radio', { name: 'A stack' }).check();
          await page.waitForFunction('typeof window.__scan.bulkAt === "number"', undefined, {
            timeout: 120_000,
          });
          const marks = (await page.evaluate('window.__scan')) as Marks;
          if (marks.labelAt === undefined) throw new Error('the first label was not seen');
          return marks.bulkAt! - marks.labelAt;
        });
        report('scan.batch_20_ms', round(batch, 0));
      } finally {
        await app.close();
      }
    });
  },
};

export default bench;
