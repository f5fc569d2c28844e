import { createServer, type Server } from 'node:http';
import { QueryClient } from '@tanstack/react-query';
import {
  toCatalogueRow,
  type CatalogueRow,
} from '../../src/features/listings/catalogue/catalogue-row';
import { applyProductEvent } from '../../src/api/listings/live-patch';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient, type SlabdeskClient } from '../../src/client';
import { DEMO_LIVE_TOKEN, DEMO_SELLER_ID } from '../../src/sandbox';
import {
  jobFromPlan,
  countJob,
  isResumable,
  type BulkJob,
} from '../../src/features/listings/bulk-edit/jobs/job';
import { MemoryJobStore } from '../../src/features/listings/bulk-edit/jobs/job-store';
import { JobRunner } from '../../src/features/listings/bulk-edit/jobs/job-runner';
import { planBulkEdit } from '../../src/features/listings/bulk-edit/logic/diff';
import { parseAmount } from '../../src/client/listing-rules';
import { formatCents } from '../../src/shared/money';
import { adjustPrice } from '../../src/shared/price-math';
import { toEditValues } from '../../src/features/listings/bulk-edit/logic/rows';
import { startHarness, type Harness } from '../support/sandbox-harness';

const cents = (text: string) => {
  const parsed = parseAmount(text);
  if (!parsed.ok) throw new Error(text);
  return parsed.value;
};

let h: Harness;
let rows: CatalogueRow[];

let receiver: Server;

beforeAll(async () => {
  h = await startHarness({ seed: 'demo', demoListings: 400 });
  // A webhook receiver, so the sandbox records an event for every change it makes.
  receiver = createServer((_request, response) => response.writeHead(204).end());
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  const hook = await h.control('POST', '/webhooks', {
    seller_id: DEMO_SELLER_ID,
    url: `http://127.0.0.1:${port}/hooks`,
    topics: ['products/update', 'products/delete'],
  });
  expect(hook.status).toBe(200);
  const api = createClient({ baseUrl: h.url, apiKey: DEMO_LIVE_TOKEN });
  const catalogue = await api.listings.loadAll({ limit: 250 });
  rows = catalogue.rows
    .map((listing) => toCatalogueRow(listing))
    .filter((r) => r.status === 'active' && cents(r.priceText!) >= 1200n);
});
afterAll(async () => {
  await h.close();
  await new Promise((resolve) => receiver.close(resolve));
});

// Each test's jobs start on the demo key's empty bucket (40 at once, then 2 a second), not
// behind the writes and reads of the tests before it.
beforeEach(() => h.sandbox.context.buckets.reset());

/** A fresh client, as a page load makes one: its bucket model starts from nothing. */
const client = (): SlabdeskClient => createClient({ baseUrl: h.url, apiKey: DEMO_LIVE_TOKEN });

/** The sandbox's own records: the events each write produced, and the stored idempotent outcomes. */
function eventsFor(ids: readonly string[]): Map<string, string[]> {
  const db = h.sandbox.context.store.db;
  const found = new Map<string, string[]>();
  const select = db.prepare(`SELECT topic FROM events WHERE resource_id = ? ORDER BY seq`);
  for (const id of ids) {
    found.set(
      id,
      (select.all(id) as { topic: string }[]).map((e) => e.topic),
    );
  }
  return found;
}
function storedKeys(keys: readonly string[]): number {
  const db = h.sandbox.context.store.db;
  const select = db.prepare(`SELECT COUNT(*) AS n FROM idempotency_keys WHERE idem_key = ?`);
  return keys.reduce((sum, key) => sum + (select.get(key) as { n: number }).n, 0);
}

function lowerTenPercent(take: CatalogueRow[]): BulkJob {
  const edits = take.map((row) => {
    const next = adjustPrice(cents(row.priceText!), {
      kind: 'percent',
      direction: 'lower',
      hundredths: 1000n,
    });
    return { ...toEditValues(row), price: formatCents(next.cents) };
  });
  const plan = planBulkEdit(take, edits);
  expect(plan.invalid).toEqual([]);
  return jobFromPlan(plan, `Lower ${take.length} prices by 10%`);
}

async function priceOf(api: SlabdeskClient, id: string): Promise<string> {
  return (await api.listings.get(id)).data.price!;
}

describe('the job runner against the sandbox', () => {
  it('applies every row once, reports a listing sold meanwhile as a conflict, and saves each row', async () => {
    const take = rows.slice(0, 12);
    const job = lowerTenPercent(take);
    const store = new MemoryJobStore();
    await store.create(job);
    const sold = job.rows[3]!.listingId;
    expect((await h.control('POST', `/listings/${sold}/sell`, {})).status).toBe(200);

    const api = client();
    const landed: string[] = [];
    const runner = new JobRunner({
      client: api,
      store,
      job,
      onWrite: (r) => landed.push(r.listingId),
    });
    await runner.start();

    const counts = countJob(job);
    expect(counts).toMatchObject({
      rows: job.rows.length,
      done: job.rows.length - 1,
      conflict: 1,
      failed: 0,
      pending: 0,
    });
    const conflict = job.rows[3]!.outcome;
    expect(conflict).toMatchObject({
      state: 'conflict',
      status: 409,
      code: 'listing_write_conflict',
    });
    expect(conflict.state === 'conflict' && conflict.requestId).toBeTruthy();
    expect(landed.sort()).toEqual(
      job.rows
        .filter((r) => r.listingId !== sold)
        .map((r) => r.listingId)
        .sort(),
    );
    for (const row of job.rows.filter((r) => r.listingId !== sold)) {
      expect(await priceOf(api, row.listingId)).toBe(row.writes[0]!.body!.price);
    }
    // The store holds what happened, row by row.
    const kept = (await store.get(job.id))!;
    expect(kept.state).toBe('finished');
    expect(countJob(kept)).toEqual(counts);
    expect(isResumable(kept)).toBe(false);
    runner.dispose();
  });

  it('takes out unsent the write of a card the live stream reported sold, as "sold meanwhile"', async () => {
    const take = rows.slice(175, 181);
    const job = lowerTenPercent(take);
    const store = new MemoryJobStore();
    await store.create(job);
    const sold = job.rows[2]!;
    expect((await h.control('POST', `/listings/${sold.listingId}/sell`, {})).status).toBe(200);
    // The sale's products/update payload, as the server's stream hands it to the tab.
    const { payload } = h.sandbox.context.store.db
      .prepare(
        `SELECT payload FROM events WHERE resource_id = ? AND topic = 'products/update' ORDER BY seq DESC`,
      )
      .get(sold.listingId) as { payload: string };
    applyProductEvent(new QueryClient(), 'products/update', JSON.parse(payload));

    const runner = new JobRunner({ client: client(), store, job });
    await runner.start();
    expect(sold.outcome).toMatchObject({ state: 'conflict', code: 'sold_meanwhile', status: 0 });
    expect(countJob(job)).toMatchObject({ done: take.length - 1, conflict: 1, failed: 0 });
    // Never sent: the sandbox stored no outcome for its key and has no event after the sale.
    expect(storedKeys([sold.writes[0]!.key])).toBe(0);
    expect(eventsFor([sold.listingId]).get(sold.listingId)).toEqual(['products/update']);
    runner.dispose();
  });

  it('resumes from the store after a stop with the same keys, so no write happens twice', async () => {
    const take = rows.slice(20, 66);
    const job = lowerTenPercent(take);
    const store = new MemoryJobStore();
    await store.create(job);
    const stale = (await store.get(job.id))!; // what a reload would find had no row been saved
    const before = eventsFor(take.map((r) => r.id));

    // A live key from an empty bucket: 40 go at once, then 2 a second. Stop after the burst.
    const first = new JobRunner({ client: client(), store, job: (await store.get(job.id))! });
    const run = first.start();
    await new Promise<void>((resolve) => {
      const off = first.subscribe(() => {
        if (first.getProgress().done >= 40) {
          off();
          resolve();
        }
      });
    });
    await first.pause();
    await run;
    first.dispose();
    const paused = (await store.get(job.id))!;
    expect(paused.state).toBe('paused');
    expect(isResumable(paused)).toBe(true);
    const doneBefore = countJob(paused).done;
    expect(doneBefore).toBeGreaterThanOrEqual(40);
    expect(doneBefore).toBeLessThan(take.length);

    // "Reload": a new client and a new runner from what the store kept.
    const second = new JobRunner({ client: client(), store, job: paused });
    await second.start();
    second.dispose();
    expect(countJob((await store.get(job.id))!)).toMatchObject({ done: take.length, pending: 0 });

    // Even a resume from a job whose saves were all lost sends each key again, and the API only
    // replays: no second change, no second event.
    const lostStore = new MemoryJobStore();
    await lostStore.create(stale);
    h.sandbox.context.buckets.reset(); // the replays' pace is not what this proves
    const replay = new JobRunner({ client: client(), store: lostStore, job: stale });
    await replay.start();
    replay.dispose();
    expect(countJob(stale)).toMatchObject({ done: take.length, failed: 0, conflict: 0 });

    const after = eventsFor(take.map((r) => r.id));
    for (const row of take) {
      const added = after.get(row.id)!.slice(before.get(row.id)!.length);
      expect(added).toEqual(['products/update']);
    }
    const keys = job.rows.flatMap((r) => r.writes.map((w) => w.key));
    expect(storedKeys(keys)).toBe(keys.length);
  }, 120_000);

  it('marks refused rows failed with their code, and retries only those with fresh keys', async () => {
    const store = new MemoryJobStore();
    const api = client();
    const second = lowerTenPercent(rows.slice(90, 96));
    await store.create(second);
    await h.control('PATCH', `/sellers/${DEMO_SELLER_ID}`, { write_approved: false });
    const refused = new JobRunner({ client: api, store, job: second });
    await refused.start();
    expect(countJob(second)).toMatchObject({ failed: 6, done: 0 });
    const failure = second.rows[0]!.outcome;
    expect(failure).toMatchObject({
      state: 'failed',
      status: 403,
      code: 'listing_write_forbidden',
    });
    const oldKeys = second.rows.map((r) => r.writes[0]!.key);

    await h.control('PATCH', `/sellers/${DEMO_SELLER_ID}`, { write_approved: true });
    expect(await refused.retryFailed()).toBe(6);
    await refused.start();
    expect(countJob(second)).toMatchObject({ done: 6, failed: 0 });
    expect(second.rows.every((r, i) => r.writes[0]!.key !== oldKeys[i] && r.retries === 1)).toBe(
      true,
    );
    expect(countJob((await store.get(second.id))!)).toMatchObject({ done: 6 });
    refused.dispose();
  });

  it('shows a 422 with its field messages', async () => {
    const row = rows[100]!;
    const job: BulkJob = {
      ...lowerTenPercent([row]),
    };
    job.rows[0]!.writes[0]!.body = { price: '5.00' }; // past the diff's checks, as a stale plan might be
    const store = new MemoryJobStore();
    await store.create(job);
    const runner = new JobRunner({ client: client(), store, job });
    await runner.start();
    const outcome = job.rows[0]!.outcome;
    expect(outcome).toMatchObject({ state: 'failed', status: 422, code: 'validation_error' });
    expect(outcome.state === 'failed' && outcome.fieldErrors.price?.length).toBeGreaterThan(0);
    runner.dispose();
  });

  it("sends a row's PUT then its DELETE, and leaves the DELETE unsent when the PUT is refused", async () => {
    const [a, b] = [rows[110]!, rows[111]!];
    const plan = planBulkEdit(
      [a, b],
      [
        { ...toEditValues(a), status: 'inactive', acceptsTrades: !a.trades },
        { ...toEditValues(b), status: 'inactive', acceptsTrades: !b.trades },
      ],
    );
    expect(plan.items.map((i) => i.writes.map((w) => w.method))).toEqual([
      ['PUT', 'DELETE'],
      ['PUT', 'DELETE'],
    ]);
    const job = jobFromPlan(plan, 'Deactivate two');
    job.rows[1]!.writes[0]!.body = { price: '5.00' }; // refused: 422
    const store = new MemoryJobStore();
    await store.create(job);
    const api = client();
    const runner = new JobRunner({ client: api, store, job });
    await runner.start();
    runner.dispose();
    expect(job.rows[0]!.outcome.state).toBe('done');
    expect(job.rows[1]!.outcome).toMatchObject({ state: 'failed', code: 'validation_error' });
    expect(job.rows[1]!.writes.map((w) => w.done)).toEqual([false, false]);
    const first = (await api.products.get(a.id)).data;
    expect(first.status).toBe('archived');
    expect(first.svc_unavailable_reason).toBe('deactivated_by_seller');
    expect(first.svc_accepts_trades).toBe(!a.trades);
    const second = (await api.products.get(b.id)).data;
    expect(second.status).toBe('active');
    expect(eventsFor([a.id]).get(a.id)!.slice(-2)).toEqual(['products/update', 'products/delete']);
  });

  it('cancels: the rows not yet sent stay unsent and the job is not offered for resume', async () => {
    const take = rows.slice(120, 170);
    const job = lowerTenPercent(take);
    const store = new MemoryJobStore();
    await store.create(job);
    const runner = new JobRunner({ client: client(), store, job });
    const run = runner.start();
    await new Promise<void>((resolve) => {
      const off = runner.subscribe(() => {
        if (runner.getProgress().done >= 5) {
          off();
          resolve();
        }
      });
    });
    await runner.cancel();
    await run;
    runner.dispose();
    const kept = (await store.get(job.id))!;
    expect(kept.state).toBe('cancelled');
    expect(isResumable(kept)).toBe(false);
    const counts = countJob(kept);
    expect(counts.done).toBeGreaterThanOrEqual(5);
    expect(counts.pending).toBeGreaterThan(0);
    expect(counts.done + counts.pending).toBe(take.length);
    // What was not sent did not change.
    const untouched = kept.rows
      .filter((r) => r.outcome.state === 'pending')
      .map((r) => r.listingId);
    const events = eventsFor(untouched);
    expect(untouched.every((id) => events.get(id)!.length === 0)).toBe(true);
  }, 60_000);
});
