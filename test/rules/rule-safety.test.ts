import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunningAppServer } from '../../src/server/app-server';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  finished,
  hub,
  listing,
  makeListings,
  markdownRule,
  startServer,
  startWorld,
  updateEvents,
  type RunDetail,
  type World,
} from './rules-world';

/**
 * Runs against a rate-limited sandbox (the spec's live bucket: 40, 2 a second), so a run of a few
 * dozen writes takes seconds and things can happen while it runs.
 */
let world: World;
let receiver: Server;

beforeAll(async () => {
  world = await startWorld({ rateLimit: true });
  // The sandbox keeps an event per change only for a seller with a webhook: a receiver that takes
  // every delivery makes its records the count of writes each listing had.
  receiver = createServer((_request, response) => response.writeHead(204).end());
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as AddressInfo).port;
  const hook = await world.harness.control('POST', '/webhooks', {
    seller_id: world.sellerId,
    url: `http://127.0.0.1:${port}/hook`,
    topics: ['products/update'],
  });
  expect(hook.status).toBe(200);
});

afterAll(async () => {
  await world?.harness.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

async function startRun(server: RunningAppServer, ruleId: number) {
  const started = await hub<{ run: { id: number } }>(server, 'POST', `/${ruleId}/run`);
  expect(started.status).toBe(202);
  return started.body.run.id;
}

async function createRule(server: RunningAppServer, definition: unknown) {
  const created = await hub<{ rule: { id: number } }>(server, 'POST', '', definition);
  expect(created.status).toBe(201);
  return created.body.rule.id;
}

async function runDetail(server: RunningAppServer, runId: number) {
  return (await hub<RunDetail>(server, 'GET', `/runs/${runId}`)).body;
}

/** Waits until `check` holds of the run. */
function until(
  server: RunningAppServer,
  runId: number,
  check: (detail: RunDetail) => boolean,
  timeout = 30_000,
) {
  return vi.waitFor(
    async () => {
      const detail = await runDetail(server, runId);
      if (check(detail)) return detail;
      throw new Error(`timed out: ${JSON.stringify(detail.run)}`);
    },
    { timeout, interval: 25 },
  );
}

describe('a restart mid-run', () => {
  it('resumes, and every listing is written exactly once (the sandbox’s records)', async () => {
    const made = await makeListings(
      world,
      'RS-1',
      Array.from({ length: 60 }, (_, i) => ({ price: `${300 + i}.00`, cost: '50.00' })),
    );
    const files = { activity: { path: join(world.folder, 'activity.db') } };
    const first = await startServer(world, files);
    const ruleId = await createRule(first, markdownRule('RS-1'));
    const runId = await startRun(first, ruleId);
    // Past the bucket's burst, writes go two a second: stop the server while many are left.
    await until(first, runId, (d) => d.run.counts.changed >= 5);
    await first.close();
    const before = updateEvents(
      world,
      made.map((m) => m.id),
    );
    const writtenBefore = [...before.values()].filter((n) => n === 1).length;
    expect(writtenBefore).toBeGreaterThanOrEqual(5);
    expect(writtenBefore).toBeLessThan(60);

    const second = await startServer(world, files);
    try {
      const done = await finished(second, runId, 60_000);
      expect(done.run).toMatchObject({
        status: 'done',
        counts: { changed: 60, failed: 0, pending: 0 },
      });
      const events = updateEvents(
        world,
        made.map((m) => m.id),
      );
      // Once each: the writes in flight at the stop went again under their keys and were replayed.
      expect([...events.values()]).toEqual(made.map(() => 1));
      for (const [i, m] of made.entries()) {
        // Whole dollars less 10 %: exact to the cent, no rounding.
        const expected = (((300 + i) * 90) / 100).toFixed(2);
        expect((await listing(world, m.id)).price).toBe(expected);
      }
    } finally {
      await second.close();
    }
  }, 120_000);
});

describe('during a run', () => {
  let server: RunningAppServer;
  let shift = 0;
  // Each run starts on an empty bucket (its 40 at once, then two a second), not behind the last
  // run's: the events below still land while the run is under way.
  beforeEach(() => world.harness.sandbox.context.buckets.reset());
  beforeAll(async () => {
    server = await startServer(world, {
      rules: {
        runner: { now: () => Date.now() + shift, maxPauses: 2, minPauseSeconds: 1, tickMs: 60_000 },
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await world.harness.control('PUT', '/faults', { writes_disabled: false });
    await world.harness.control('PATCH', `/sellers/${world.sellerId}`, { write_approved: true });
  });

  it('a person’s edit wins over the rule', async () => {
    const made = await makeListings(
      world,
      'PE-1',
      Array.from({ length: 50 }, () => ({ price: '200.00', cost: '50.00' })),
    );
    const ruleId = await createRule(server, markdownRule('PE-1'));
    const runId = await startRun(server, ruleId);
    const last = made.at(-1)!;
    // The seller changes the last listing through the dashboard while the run is under way.
    const put = await fetch(`${server.url}/api/2026-07/listings/${last.id}.json`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ listing: { price: '205.00' } }),
    });
    expect(put.status).toBe(200);
    const done = await finished(server, runId, 60_000);
    expect(done.items.find((i) => i.listingId === last.id)).toMatchObject({
      state: 'skipped',
      reason: 'edited_by_person',
    });
    expect((await listing(world, last.id)).price).toBe('205.00');
    expect(done.run.counts.changed).toBe(49);
  }, 90_000);

  it('a listing sold mid-run (409) is reported and the run goes on', async () => {
    const made = await makeListings(
      world,
      'SO-1',
      Array.from({ length: 45 }, () => ({ price: '200.00', cost: '50.00' })),
    );
    const ruleId = await createRule(server, markdownRule('SO-1'));
    const runId = await startRun(server, ruleId);
    const sold = made.at(-1)!;
    expect((await world.harness.control('POST', `/listings/${sold.id}/sell`, {})).status).toBe(200);
    const done = await finished(server, runId, 60_000);
    expect(done.items.find((i) => i.listingId === sold.id)).toMatchObject({
      state: 'failed',
      reason: 'listing_write_conflict',
      status: 409,
    });
    expect(done.run).toMatchObject({ status: 'done', counts: { changed: 44, failed: 1 } });
  }, 90_000);

  it('writes switched off mid-run pause it with a clear line, resume after, and stop after repeated pauses', async () => {
    const made = await makeListings(
      world,
      'WD-1',
      Array.from({ length: 50 }, () => ({ price: '200.00', cost: '50.00' })),
    );
    const ruleId = await createRule(server, markdownRule('WD-1'));
    const runId = await startRun(server, ruleId);
    await until(server, runId, (d) => d.run.counts.changed >= 1);
    await world.harness.control('PUT', '/faults', { writes_disabled: true });
    const paused = await until(server, runId, (d) => d.run.status === 'paused' && !d.sending);
    expect(paused.run.note).toMatch(/switched off changes/);
    expect(paused.run.counts.pending).toBeGreaterThan(0);
    const listed = await hub<{ pause: string | null }>(server, 'GET', '');
    expect(listed.body.pause).toMatch(/switched off changes/);
    // Not retried by itself before its wait is over.
    server.rules!.runner.tick();
    expect((await runDetail(server, runId)).run.status).toBe('paused');

    // The wait is over, writes are back: the run carries on to the end.
    await world.harness.control('PUT', '/faults', { writes_disabled: false });
    shift += 31_000;
    server.rules!.runner.tick();
    const done = await finished(server, runId, 60_000);
    expect(done.run.counts).toMatchObject({ changed: 50, failed: 0, pending: 0 });
    // Each written once: the refused writes wrote nothing, the resumed ones were not doubled.
    expect([
      ...updateEvents(
        world,
        made.map((m) => m.id),
      ).values(),
    ]).toEqual(made.map(() => 1));

    // Writes off for good: a second run pauses, tries once more, then stops and says so.
    const more = await makeListings(world, 'WD-2', [
      { price: '200.00', cost: '50.00' },
      { price: '210.00', cost: '50.00' },
    ]);
    const again = await createRule(server, markdownRule('WD-2'));
    await world.harness.control('PUT', '/faults', { writes_disabled: true });
    const second = await startRun(server, again);
    await until(server, second, (d) => d.run.status === 'paused' && !d.sending);
    shift += 31_000;
    server.rules!.runner.tick();
    const stopped = await finished(server, second, 30_000);
    expect(stopped.run.status).toBe('stopped');
    expect(stopped.run.note).toMatch(/^Stopped/);
    expect(stopped.items.every((i) => i.state === 'failed')).toBe(true);
    await world.harness.control('PUT', '/faults', { writes_disabled: false });
    expect((await listing(world, more[0]!.id)).price).toBe('200.00');
  }, 120_000);

  it('a 403 mid-run stops it with a clear line, not retried', async () => {
    await makeListings(
      world,
      'FB-1',
      Array.from({ length: 45 }, () => ({ price: '200.00', cost: '50.00' })),
    );
    const ruleId = await createRule(server, markdownRule('FB-1'));
    const runId = await startRun(server, ruleId);
    await until(server, runId, (d) => d.run.counts.changed >= 1);
    await world.harness.control('PATCH', `/sellers/${world.sellerId}`, { write_approved: false });
    const stopped = await finished(server, runId, 60_000);
    expect(stopped.run.status).toBe('stopped');
    expect(stopped.run.note).toMatch(/does not let this account change listings/);
    const refused = stopped.items.filter((i) => i.reason === 'listing_write_forbidden');
    // Refused once or a few times (the writes already in flight), never one for every listing.
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(refused.length).toBeLessThanOrEqual(4);
    expect(stopped.items.filter((i) => i.reason === 'stopped').length).toBeGreaterThan(0);
    await world.harness.control('PATCH', `/sellers/${world.sellerId}`, { write_approved: true });
  }, 90_000);
});
