import { fork } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../src/sandbox';
import { emitProductEvent } from '../src/sandbox/domain/events';
import { randomIds } from '../src/sandbox/domain/ids';
import { createInventoryItem } from '../src/sandbox/domain/inventory';
import { insertListing } from '../src/sandbox/domain/listings';
import { round, type Bench } from './bench-api';
import type { CreateLoadJob, CreateLoadResult } from './sandbox-writes-load';
import { sized } from './quick';

const CREATES = sized(3000, 200);
const CREATE_SECONDS = sized(8, 2);
const DELIVERIES = sized(2000, 200);
const DELIVERY_TIMEOUT_MS = 60_000;

async function control<T>(url: string, path: string, body: unknown): Promise<T> {
  const response = await fetch(`${url}/_sandbox${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/**
 * `sandbox.create.rps`: POST /listings.json by sku (with an Idempotency-Key) over loopback, 8 in
 * flight from a separate process, bucket off.
 */
async function measureCreates(report: (name: string, value: number) => void): Promise<void> {
  const sandbox = await startSandbox({ port: 0, db: ':memory:', seed: 'none', rateLimit: false });
  try {
    const seller = await control<{ seller: { id: string } }>(sandbox.url, '/sellers', {});
    const key = await control<{ key: { token: string } }>(sandbox.url, '/keys', {
      seller_id: seller.seller.id,
      mode: 'live',
      scopes: ['write_listings'],
    });
    const certs: string[] = [];
    sandbox.context.store.transaction(() => {
      for (let i = 0; i < CREATES; i++) {
        const cert = String(50_000_000 + i);
        certs.push(cert);
        sandbox.context.store.catalog.putCert({
          grader: i % 2 ? 'PSA' : 'BGS',
          cert_number: cert,
          title: `Bench card ${i}`,
          grade: '9',
          year: 2020,
          card_set: 'Bench Set',
          player: 'Bench Player',
          category: 'baseball',
          variant: null,
        });
      }
    });
    const result = await new Promise<CreateLoadResult>((resolve, reject) => {
      const child = fork(fileURLToPath(new URL('./sandbox-writes-load.ts', import.meta.url)), {
        execArgv: ['--import', 'tsx'],
      });
      child.once('message', (message) => resolve(message as CreateLoadResult));
      child.once('error', reject);
      const job: CreateLoadJob = {
        url: sandbox.url,
        token: key.key.token,
        certs,
        concurrency: 8,
        seconds: CREATE_SECONDS,
      };
      child.send(job);
    });
    if (result.failures > 0) throw new Error(`${result.failures} creates failed`);
    report('sandbox.create.rps', round(result.created / result.seconds, 0));
  } finally {
    await sandbox.close();
  }
}

/**
 * `sandbox.webhooks.per_s`: 2,000 events committed at once, drained by the delivery worker to a
 * local receiver that verifies every signature over the raw bytes before answering 200.
 */
async function measureDeliveries(report: (name: string, value: number) => void): Promise<void> {
  let valid = 0;
  let invalid = 0;
  let secret = '';
  let done: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      const header = String(request.headers['x-service-webhook-signature'] ?? '');
      const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
      const expected = match
        ? createHmac('sha256', secret)
            .update(Buffer.concat([Buffer.from(`${match[1]}.`), raw]))
            .digest()
        : Buffer.alloc(32);
      if (match && timingSafeEqual(expected, Buffer.from(match[2]!, 'hex'))) valid++;
      else invalid++;
      response.writeHead(200).end();
      if (valid + invalid >= DELIVERIES) done();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const sandbox = await startSandbox({ port: 0, db: ':memory:', seed: 'none', rateLimit: false });
  try {
    const seller = await control<{ seller: { id: string } }>(sandbox.url, '/sellers', {});
    const hook = await control<{ webhook: { secret: string } }>(sandbox.url, '/webhooks', {
      seller_id: seller.seller.id,
      url: receiverUrl,
      topics: ['products/update'],
    });
    secret = hook.webhook.secret;
    const { store, clock } = sandbox.context;
    const scope = { sellerId: seller.seller.id, test: false };
    const listingIds = store.transaction(() =>
      Array.from({ length: DELIVERIES }, (_, i) => {
        const now = clock.now();
        const item = createInventoryItem(store, randomIds, now, scope, {
          cert_number: String(60_000_000 + i),
          grader: 'PSA',
          title: `Bench card ${i}`,
        });
        return insertListing(
          store,
          randomIds,
          now,
          scope,
          [item.id],
          { title: `Bench card ${i}`, price_cents: 2500 },
          { kind: 'live' },
        ).id;
      }),
    );
    const started = performance.now();
    store.transaction(() => {
      for (const id of listingIds)
        emitProductEvent(store, randomIds, clock.now(), 'products/update', id);
    });
    const timeout = setTimeout(done, DELIVERY_TIMEOUT_MS);
    await finished;
    clearTimeout(timeout);
    const seconds = (performance.now() - started) / 1000;
    if (invalid > 0) throw new Error(`${invalid} deliveries failed signature verification`);
    if (valid < DELIVERIES) throw new Error(`only ${valid} of ${DELIVERIES} deliveries arrived`);
    report('sandbox.webhooks.per_s', round(valid / seconds, 0));
  } finally {
    await sandbox.close();
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
}

const bench: Bench = {
  figures: ['sandbox.create.rps', 'sandbox.webhooks.per_s'],
  async run(report) {
    await measureCreates(report);
    await measureDeliveries(report);
  },
};

export default bench;
