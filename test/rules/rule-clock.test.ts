import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningAppServer } from '../../src/server/app-server';
import { localDayAndTime } from '../../src/server/rules/rule-schedule';
import type { RunRecord } from '../../src/server/rules/rules-store';
import {
  finished,
  FLOOR,
  hub,
  listing,
  makeListings,
  markdownRule,
  startServer,
  startWorld,
  type World,
} from './rules-world';

/**
 * The rules keep their clock: a sale starts and ends at its minute and a daily rule runs at its
 * time in its zone, by the server's own timer, with no click. The server's clock is injected and
 * moved on by the test; nothing waits it out.
 */

let world: World;
let server: RunningAppServer;
let shift = 0;
const now = () => Date.now() + shift;
const MINUTE = 60_000;

beforeAll(async () => {
  world = await startWorld();
  server = await startServer(world, { rules: { runner: { now, tickMs: 100 } } });
});

afterAll(async () => {
  await server?.close();
  await world?.harness.close();
});

const runsOf = async (ruleId: number) =>
  (await hub<{ runs: RunRecord[] }>(server, 'GET', `/${ruleId}/runs`)).body.runs;

async function pricesOf(ids: readonly string[]) {
  return Promise.all(ids.map(async (id) => (await listing(world, id)).price));
}

describe('a sale event', () => {
  it('starts at its start and ends by itself within a minute of its end, prices back', async () => {
    const made = await makeListings(world, 'CK-1', [
      { price: '400.00', cost: '100.00' },
      { price: '250.00', cost: '100.00' },
    ]);
    const ids = made.map((m) => m.id);
    const startsAt = now() + 10 * MINUTE;
    const endsAt = startsAt + 2.5 * MINUTE;
    const created = await hub<{ rule: { id: number; enabled: boolean } }>(server, 'POST', '', {
      name: 'Two and a half minutes off',
      scope: { grade: 'CK-1' },
      action: {
        kind: 'sale',
        percent: 20,
        startsAt: new Date(startsAt).toISOString(),
        endsAt: new Date(endsAt).toISOString(),
      },
      floor: FLOOR,
    });
    expect(created.status).toBe(201);
    const ruleId = created.body.rule.id;
    // A sale keeps its own clock from the moment it is saved.
    expect(created.body.rule.enabled).toBe(true);
    expect(await runsOf(ruleId)).toEqual([]);
    expect(await pricesOf(ids)).toEqual(['400.00', '250.00']);

    shift += startsAt - now() + 1_000;
    await vi.waitFor(async () => expect(await pricesOf(ids)).toEqual(['320.00', '200.00']), {
      timeout: 20_000,
      interval: 100,
    });
    const [start] = await runsOf(ruleId);
    expect(start).toMatchObject({ trigger: 'schedule', by: null });
    await finished(server, start!.id);

    shift += endsAt - now() + 1_000;
    await vi.waitFor(async () => expect(await pricesOf(ids)).toEqual(['400.00', '250.00']), {
      timeout: 20_000,
      interval: 100,
    });
    const runs = await runsOf(ruleId);
    expect(runs.map((run) => run.trigger)).toEqual(['schedule', 'schedule']);
    const end = await finished(server, runs[0]!.id);
    expect(end.run.counts.changed).toBe(2);
    // Started by the server's timer within a minute of the sale's end (on the injected clock).
    const late = Date.parse(end.run.startedAt) - endsAt;
    expect(late).toBeGreaterThanOrEqual(0);
    expect(late).toBeLessThan(MINUTE);
  }, 60_000);
});

describe('a daily rule', () => {
  it('starts by itself at its time in the seller’s zone, once that day', async () => {
    const [only] = await makeListings(world, 'CK-2', [{ price: '200.00', cost: '50.00' }]);
    const timeZone = 'Europe/Paris';
    const at = now() + 5 * MINUTE;
    const { time } = localDayAndTime(at, timeZone);
    const created = await hub<{ rule: { id: number } }>(server, 'POST', '', {
      ...markdownRule('CK-2'),
      schedule: { daily: true, time, timeZone },
    });
    expect(created.status).toBe(201);
    const ruleId = created.body.rule.id;
    const on = await hub<{ rule: { enabled: boolean; nextRunAt: string } }>(
      server,
      'PUT',
      `/${ruleId}`,
      { enabled: true },
    );
    expect(on.body.rule.enabled).toBe(true);
    // The next run is that minute in Paris.
    expect(Math.abs(Date.parse(on.body.rule.nextRunAt) - at)).toBeLessThan(MINUTE);
    expect(await runsOf(ruleId)).toEqual([]);

    shift += at - now() + MINUTE;
    const run = await vi.waitFor(
      async () => {
        const [first] = await runsOf(ruleId);
        if (!first) throw new Error('not started yet');
        return first;
      },
      { timeout: 20_000, interval: 100 },
    );
    expect(run).toMatchObject({ trigger: 'schedule' });
    await finished(server, run.id);
    expect((await listing(world, only!.id)).price).toBe('180.00');
    // Looked at again and again the same day, it does not run twice.
    shift += MINUTE;
    await vi.waitFor(async () => {
      const answer = await hub<{ rules: { id: number; nextRunAt: string }[] }>(server, 'GET', '');
      const rule = answer.body.rules.find((r) => r.id === ruleId)!;
      expect(Date.parse(rule.nextRunAt)).toBeGreaterThan(now() + 60 * MINUTE);
    });
    expect(await runsOf(ruleId)).toHaveLength(1);
  }, 60_000);
});

describe('Run now', () => {
  it('runs the plan previewed, or refuses with what changed since and runs the new plan', async () => {
    const [kept, edited] = await makeListings(world, 'CK-3', [
      { price: '200.00', cost: '50.00' },
      { price: '300.00', cost: '50.00' },
    ]);
    const created = await hub<{ rule: { id: number } }>(server, 'POST', '', markdownRule('CK-3'));
    const ruleId = created.body.rule.id;
    const preview = await hub<{ plan: string; changes: number; markdown: string }>(
      server,
      'POST',
      '/preview',
      { ruleId },
    );
    expect(preview.body).toMatchObject({ changes: 2, markdown: '50.00' });
    // The seller changes a price through the dashboard after the preview.
    const put = await fetch(`${server.url}/api/2026-07/listings/${edited!.id}.json`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ listing: { price: '290.00' } }),
    });
    expect(put.status).toBe(200);
    const answer = await hub<{
      svc_error: {
        code: string;
        plan: string;
        changes: number;
        markdown: string;
        changed: { removed: number; listings: { listingId: string; change: string }[] };
      };
    }>(server, 'POST', `/${ruleId}/run`, { plan: preview.body.plan });
    expect(answer.status).toBe(409);
    const refused = answer.body.svc_error;
    expect(refused).toMatchObject({ code: 'plan_changed', changes: 1, markdown: '20.00' });
    expect(refused.changed.removed).toBe(1);
    expect(refused.changed.listings).toEqual([
      expect.objectContaining({ listingId: edited!.id, change: 'removed' }),
    ]);
    expect(await runsOf(ruleId)).toEqual([]);
    expect((await listing(world, kept!.id)).price).toBe('200.00');

    // The seller accepts the new plan.
    const run = await hub<{ run: { id: number } }>(server, 'POST', `/${ruleId}/run`, {
      plan: refused.plan,
    });
    expect(run.status).toBe(202);
    const done = await finished(server, run.body.run.id);
    expect(done.run.counts.changed).toBe(1);
    expect((await listing(world, kept!.id)).price).toBe('180.00');
    expect((await listing(world, edited!.id)).price).toBe('290.00');
  }, 60_000);
});
