import { chromium, expect, test, type Browser, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium';
import { demoApiFetch } from './demo-records';
import { expectNoAxeViolations, untilKeptOffline } from './support';
import { barcodeLabel, blankFrame, qrLabel, writeY4m, type Clip } from './scan-labels';

/**
 * Scanning with a fake camera: Chromium plays a `.y4m` drawn here from demo slabs' labels (the 1D
 * barcode of the bare cert, the QR of a grader's lookup URL). One browser per video file: the
 * file is a launch flag. Headless Chromium on Linux has no BarcodeDetector of its own, so the
 * polyfill (zxing-wasm, served by our server) is the reader under test; each test says which.
 */

interface DemoListing {
  id: string;
  title: string;
  status: string;
  price: string;
  card: { cert_number: string; grader: string };
}

async function activeListings(count: number): Promise<DemoListing[]> {
  const response = await demoApiFetch('/listings.json?limit=100&status=active');
  expect(response.status).toBe(200);
  const { listings } = (await response.json()) as { listings: DemoListing[] };
  const seen = new Set<string>();
  const unique = listings.filter((row) => {
    if (row.status !== 'active' || seen.has(row.card.cert_number)) return false;
    seen.add(row.card.cert_number);
    return true;
  });
  expect(unique.length).toBeGreaterThanOrEqual(count);
  return unique.slice(0, count);
}

/** A browser whose camera plays `clip`, and a phone-sized page on the app. */
async function withCamera(
  clip: Clip,
  run: (page: Page, requests: readonly string[]) => Promise<void>,
  viewport = { width: 390, height: 844 },
  /** `allow` where the test needs the service worker (the suite blocks it by default). */
  serviceWorkers: 'allow' | 'block' = 'block',
): Promise<void> {
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
      baseURL: process.env.SLABDESK_E2E_URL,
      viewport,
      permissions: ['camera'],
      serviceWorkers,
    });
    const page = await context.newPage();
    const errors: Error[] = [];
    page.on('pageerror', (error) => errors.push(error));
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await run(page, requests);
    expect(errors.map(String)).toEqual([]);
    // No network but ours: the reader's code and wasm come from the app's own server.
    const origin = new URL(process.env.SLABDESK_E2E_URL!).origin;
    const foreign = requests.filter(
      (url) => !url.startsWith(`${origin}/`) && !/^(data|blob):/.test(url),
    );
    expect(foreign).toEqual([]);
  } finally {
    await browser?.close();
  }
}

/** Which reader the page uses, noted on the test (the browser's own, or the polyfill). */
async function noteReader(page: Page): Promise<void> {
  const native = await page.evaluate(() => 'BarcodeDetector' in globalThis);
  const engine = await page.locator('.camera-scanner').getAttribute('data-engine');
  test.info().annotations.push({
    type: 'reader',
    description: `native BarcodeDetector ${native ? 'present' : 'absent'}; scanner used ${engine ?? 'not yet known'}`,
  });
}

/** Opens Scan from the header and waits for the camera to run. */
async function openScanner(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Scan', exact: true }).click();
  await expect(page.getByRole('dialog', { name: /Scan a/ })).toBeVisible();
  await expect(page.locator('.camera-scanner')).toHaveAttribute('data-camera', 'running', {
    timeout: 20_000,
  });
  await noteReader(page);
}

test("a slab's 1D barcode opens its counter view: price, status, net online, actions", async () => {
  const [slab] = await activeListings(1);
  const cert = slab!.card.cert_number;
  await withCamera(
    [
      { frame: blankFrame(), seconds: 1 },
      { frame: barcodeLabel(cert), seconds: 4 },
    ],
    async (page, requests) => {
      await page.goto('/listings');
      // Whole (the shared server may hold listings other specs made).
      await expect(page.getByText(/^(\d+) of \1 listings/)).toBeVisible({ timeout: 30_000 });
      // The reader is not in the first load: it comes with the scanner.
      expect(requests.filter((url) => /ponyfill|zxing|\.wasm/.test(url))).toEqual([]);
      await openScanner(page);
      await expect(page).toHaveURL(new RegExp(`/show/cert/${cert}$`), { timeout: 15_000 });
      if (!(await page.evaluate(() => 'BarcodeDetector' in globalThis))) {
        expect(requests.filter((url) => url.endsWith('.wasm')).length).toBe(1);
      }
      const view = page.getByRole('region', { name: new RegExp(`cert ${cert}`) });
      await expect(view.getByRole('heading', { level: 1 })).toContainText(`cert ${cert}`);
      await expect(view.getByText('Asking')).toBeVisible();
      await expect(view.getByText('Nets online')).toBeVisible();
      await expect(view.getByRole('button', { name: 'Deactivate' })).toBeVisible();
      await expect(view.getByRole('button', { name: /^−10%\s→\s/ })).toBeVisible();
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await expectNoAxeViolations(page);
      await page.screenshot({ path: 'test/e2e/screenshots/scan-counter-view.png' });
    },
  );
});

test("an unknown cert's QR (a CGC lookup URL) opens New listing with the cert and grader filled in", async () => {
  const cert = `4${String(Date.now()).slice(-9)}`;
  await withCamera(
    [
      { frame: blankFrame(), seconds: 1 },
      { frame: qrLabel(`https://www.cgccards.com/certlookup/${cert}/`), seconds: 4 },
    ],
    async (page) => {
      await page.goto('/listings');
      await expect(page.getByText(/^(\d+) of \1 listings/)).toBeVisible({ timeout: 30_000 });
      await openScanner(page);
      await expect(page).toHaveURL(/\/listings\/new\?/, { timeout: 15_000 });
      await expect(page.getByLabel('Cert number')).toHaveValue(cert);
      await expect(page.getByLabel('Grader')).toHaveValue('CGC');
    },
  );
});

test('a stack of five labels lands in the bulk editor, repeats ignored', async () => {
  const slabs = await activeListings(5);
  const clip: Clip = [
    // Time to switch the scanner to a stack before the first label shows.
    { frame: blankFrame(), seconds: 3 },
    ...slabs.flatMap((slab) => [
      { frame: barcodeLabel(slab.card.cert_number), seconds: 1.2 },
      { frame: blankFrame(), seconds: 0.3 },
    ]),
  ];
  await withCamera(clip, async (page) => {
    await page.goto('/listings');
    await expect(page.getByText(/^(\d+) of \1 listings/)).toBeVisible({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Scan', exact: true }).click();
    await page.getByRole('radio', { name: 'A stack' }).check();
    await expect(page.locator('.camera-scanner')).toHaveAttribute('data-camera', 'running', {
      timeout: 20_000,
    });
    await noteReader(page);
    await expect(page.getByRole('heading', { name: 'In the stack: 5 slabs' })).toBeVisible({
      timeout: 30_000,
    });
    // The file loops: every label is seen again, and none is added twice.
    await expect(page.getByRole('status').filter({ hasText: /in the stack already/ })).toBeVisible({
      timeout: 15_000,
    });
    await expect(
      page.getByRole('list', { name: 'Scanned slabs' }).getByRole('listitem'),
    ).toHaveCount(5);
    await page.getByRole('button', { name: 'Open 5 listings in the bulk editor' }).click();
    await expect(page.getByRole('table', { name: 'Bulk edit grid, 5 listings' })).toBeVisible({
      timeout: 20_000,
    });
    const ids = new URL(page.url()).searchParams.get('ids')!.split(',').sort();
    expect(ids).toEqual(slabs.map((slab) => slab.id).sort());
  });
});

interface DemoOrder {
  id: string;
  name: string;
  cancelled_at: string | null;
  line_items: { sku: string; title: string }[];
  svc_seller_shipment: { status: string };
}

test('packing by scanning refuses a wrong slab, naming the card the order needs, and ticks the right one', async () => {
  const response = await demoApiFetch('/orders.json?status=open&limit=100');
  expect(response.status).toBe(200);
  const { orders } = (await response.json()) as { orders: DemoOrder[] };
  const order = orders.find(
    (row) =>
      row.cancelled_at === null &&
      row.svc_seller_shipment.status === 'pending_shipment' &&
      row.line_items.length === 1,
  );
  expect(order, 'an order awaiting shipment to the hub').toBeDefined();
  const right = order!.line_items[0]!.sku;
  const [other] = (await activeListings(3)).filter((row) => row.card.cert_number !== right);
  const wrong = other!.card.cert_number;
  await withCamera(
    [
      { frame: blankFrame(), seconds: 3 },
      { frame: barcodeLabel(wrong), seconds: 2.5 },
      { frame: blankFrame(), seconds: 0.5 },
      { frame: barcodeLabel(right), seconds: 3 },
    ],
    async (page) => {
      await page.goto(`/ship-queue/packing-sheet?orders=${order!.id}`);
      await expect(page.getByRole('table', { name: 'Cards in this box' })).toBeVisible({
        timeout: 20_000,
      });
      await page.getByRole('button', { name: 'Scan slabs into the box' }).click();
      await expect(page.locator('.camera-scanner')).toHaveAttribute('data-camera', 'running', {
        timeout: 20_000,
      });
      await noteReader(page);
      const refusal = page.getByRole('alert').filter({ hasText: /^Wrong card: this order is / });
      await expect(refusal).toBeVisible({ timeout: 20_000 });
      await expect(refusal).toContainText(`cert ${right}`);
      await expect(refusal).toContainText(`cert ${wrong}, is in no order of this box`);
      await expect(page.getByText('0 slabs of 1 checked.')).toBeVisible();
      await expect(page.getByText(`Right card:`)).toBeVisible({ timeout: 20_000 });
      await expect(page.getByText('All 1 slab checked: the box is ready.')).toBeVisible();
      // The order's row (on a phone the table stacks, its header row not drawn).
      const row = page
        .getByRole('table', { name: 'Cards in this box' })
        .getByRole('row')
        .filter({ hasText: right });
      await expect(row).toContainText('✓');
    },
  );
});

test('offline, the camera still reads a label: the worker kept the reader and its wasm', async () => {
  const [slab] = await activeListings(1);
  const cert = slab!.card.cert_number;
  await withCamera(
    [
      { frame: blankFrame(), seconds: 1 },
      { frame: barcodeLabel(cert), seconds: 4 },
    ],
    async (page) => {
      await page.goto('/listings');
      await expect(page.getByText(/^(\d+) of \1 listings/)).toBeVisible({ timeout: 30_000 });
      // The service worker has kept the app, the reader's wasm among it.
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready;
      });
      await expect
        .poll(
          () =>
            page.evaluate(async () => {
              for (const name of await caches.keys()) {
                const keys = await (await caches.open(name)).keys();
                if (keys.some((request) => request.url.endsWith('.wasm'))) return true;
              }
              return false;
            }),
          { timeout: 30_000 },
        )
        .toBe(true);
      // And the scanner's pages (kept once the page is idle).
      await untilKeptOffline(page);
      await page.context().setOffline(true);
      await page.reload();
      await expect(page.getByText(/of \d+ listings/)).toBeVisible({ timeout: 30_000 });
      await openScanner(page);
      await expect(page).toHaveURL(new RegExp(`/show/cert/${cert}$`), { timeout: 15_000 });
      const view = page.getByRole('region', { name: new RegExp(`cert ${cert}`) });
      await expect(view.getByRole('heading', { level: 1 })).toContainText(`cert ${cert}`);
    },
    undefined,
    'allow',
  );
});
