import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningAppServer } from '../../src/server/app-server';
import {
  activityOf,
  finished,
  FLOOR,
  hub,
  listing,
  makeListings,
  startServer,
  startWorld,
  type RuleView,
  type World,
} from './rules-world';

let world: World;
let server: RunningAppServer;

beforeAll(async () => {
  world = await startWorld();
  server = await startServer(world);
});

afterAll(async () => {
  await server?.close();
  await world?.harness.close();
});

interface PreviewItem {
  listingId: string;
  kind: 'write' | 'skip';
  reason: string | null;
  why: string;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  floor: string | null;
}

async function createRule(definition: Record<string, unknown>) {
  const created = await hub<{ rule: RuleView }>(server, 'POST', '', definition);
  expect(created.status).toBe(201);
  return created.body.rule;
}

async function preview(ruleId: number) {
  const answer = await hub<{ items: PreviewItem[]; changes: number }>(server, 'POST', '/preview', {
    ruleId,
  });
  expect(answer.status).toBe(200);
  return answer.body;
}

async function runNow(ruleId: number) {
  const started = await hub<{ run: { id: number } }>(server, 'POST', `/${ruleId}/run`);
  expect(started.status).toBe(202);
  return finished(server, started.body.run.id);
}

/** The rule's newest run once it has `count` of them. */
async function runOfRule(ruleId: number, count: number) {
  return vi.waitFor(async () => {
    const { runs } = (await hub<{ runs: { id: number }[] }>(server, 'GET', `/${ruleId}/runs`)).body;
    if (runs.length < count) throw new Error(`${runs.length} runs so far`);
    return runs[0]!;
  });
}

describe('age markdown', () => {
  it('previews, runs, keeps history and activity, never crosses the floor, and undoes', async () => {
    // Cost 100: floor = break-even of 110 at 12 % fee = 125.00.
    const [stale, nearFloor, noCost] = await makeListings(world, 'MD-1', [
      { price: '200.00', cost: '100.00' },
      { price: '130.00', cost: '100.00' },
      { price: '90.00', cost: null },
    ]);
    const rule = await createRule({
      name: 'Stale slabs down 10 %',
      scope: { grade: 'MD-1', status: 'active' },
      action: {
        kind: 'markdown',
        afterDays: 0,
        step: { kind: 'percent', percent: 10 },
        everyDays: 7,
        ending: '99',
      },
      floor: FLOOR,
    });
    const plan = await preview(rule.id);
    const byId = new Map(plan.items.map((item) => [item.listingId, item]));
    expect(byId.get(stale!.id)).toMatchObject({
      kind: 'write',
      before: { price: '200.00' },
      after: { price: '179.99' },
      floor: '125.00',
    });
    // The step in words, and what the .99 ending does to it.
    expect(byId.get(stale!.id)!.why).toBe(
      'listed 0 days; 10% off $200.00 is $180.00; ending in .99 makes it $179.99, 10.01% off',
    );
    // 130 − 10 % = 117 is below the floor: stops at the floor.
    expect(byId.get(nearFloor!.id)).toMatchObject({ kind: 'write', after: { price: '125.00' } });
    expect(byId.get(nearFloor!.id)!.why).toContain('floor');
    expect(byId.get(noCost!.id)).toMatchObject({ kind: 'skip', reason: 'no_cost' });
    // Nothing was written by the preview.
    expect((await listing(world, stale!.id)).price).toBe('200.00');

    const run = await runNow(rule.id);
    expect(run.run).toMatchObject({
      status: 'done',
      counts: { changed: 2, skipped: 1, failed: 0 },
    });
    expect((await listing(world, stale!.id)).price).toBe('179.99');
    expect((await listing(world, nearFloor!.id)).price).toBe('125.00');
    expect((await listing(world, noCost!.id)).price).toBe('90.00');

    const history = await hub<{ runs: { id: number; counts: { changed: number } }[] }>(
      server,
      'GET',
      `/${rule.id}/runs`,
    );
    expect(history.body.runs.map((r) => r.id)).toContain(run.run.id);

    const [entry] = await activityOf(server, stale!.id);
    expect(entry).toMatchObject({
      actor: { name: 'Rule “Stale slabs down 10 %”', role: 'rule' },
      changes: { price: { before: '200.00', after: '179.99' } },
      outcome: 'ok',
      rule: { id: rule.id, createdBy: null },
    });

    // A second run right away: the next step is not due yet.
    const again = await runNow(rule.id);
    expect(again.run.counts.changed).toBe(0);
    expect(again.items.find((i) => i.listingId === stale!.id)?.reason).toBe('not_due');

    const undo = await hub<{ run: { id: number } }>(server, 'POST', `/runs/${run.run.id}/undo`);
    expect(undo.status).toBe(202);
    const undone = await finished(server, undo.body.run.id);
    expect(undone.run.counts.changed).toBe(2);
    expect((await listing(world, stale!.id)).price).toBe('200.00');
    expect((await listing(world, nearFloor!.id)).price).toBe('130.00');
    const twice = await hub(server, 'POST', `/runs/${run.run.id}/undo`);
    expect(twice.status).toBe(409);
  });
});

describe('offer floor', () => {
  it('keeps minimum_offer at a share of the price, never below the floor, and turns offers on', async () => {
    const [offers, closed] = await makeListings(world, 'OF-1', [
      { price: '300.00', cost: '100.00', acceptsOffers: true },
      { price: '140.00', cost: '100.00', acceptsOffers: false },
    ]);
    const rule = await createRule({
      name: 'Offers at 80 %',
      scope: { grade: 'OF-1' },
      action: { kind: 'offer_floor', percent: 80, turnOnAfterDays: 0 },
      floor: FLOOR,
    });
    const plan = await preview(rule.id);
    const byId = new Map(plan.items.map((item) => [item.listingId, item]));
    expect(byId.get(offers!.id)).toMatchObject({
      kind: 'write',
      after: { minimum_offer: '240.00' },
    });
    // 80 % of 140 is 112, below the 125 floor: the floor holds.
    expect(byId.get(closed!.id)).toMatchObject({
      kind: 'write',
      after: { minimum_offer: '125.00', accepts_offers: true },
    });
    const run = await runNow(rule.id);
    expect(run.run.counts.changed).toBe(2);
    expect(await listing(world, offers!.id)).toMatchObject({ minimum_offer: '240.00' });
    expect(await listing(world, closed!.id)).toMatchObject({
      minimum_offer: '125.00',
      accepts_offers: true,
    });
    expect((await activityOf(server, closed!.id))[0]?.rule?.id).toBe(rule.id);

    const undo = await hub<{ run: { id: number } }>(server, 'POST', `/runs/${run.run.id}/undo`);
    await finished(server, undo.body.run.id);
    expect(await listing(world, offers!.id)).toMatchObject({ minimum_offer: null });
    expect(await listing(world, closed!.id)).toMatchObject({ accepts_offers: false });
  });
});

describe('sale event', () => {
  it('lowers during the window and puts back at the end unless the seller changed it', async () => {
    const [kept, changed] = await makeListings(world, 'SE-1', [
      { price: '400.00', cost: '100.00' },
      { price: '250.00', cost: '100.00' },
    ]);
    const now = Date.now();
    const rule = await createRule({
      name: 'Weekend sale',
      scope: { grade: 'SE-1' },
      action: {
        kind: 'sale',
        percent: 20,
        startsAt: new Date(now - 60_000).toISOString(),
        endsAt: new Date(now + 3_600_000).toISOString(),
      },
      floor: FLOOR,
    });
    // Its start is past: the sale starts by itself as it is saved.
    const during = await finished(server, (await runOfRule(rule.id, 1)).id);
    expect(during.run).toMatchObject({ trigger: 'schedule' });
    expect(during.run.counts.changed).toBe(2);
    expect((await listing(world, kept!.id)).price).toBe('320.00');
    expect((await listing(world, changed!.id)).price).toBe('200.00');
    // The seller sets a price of their own meanwhile.
    await world.harness.api(`/listings/${changed!.id}.json`, {
      token: world.token,
      method: 'PUT',
      body: { listing: { price: '210.00' } },
    });
    // The sale ends: the owner moves its end into the past.
    const ruleNow = await hub<{ rules: { id: number; definition: Record<string, unknown> }[] }>(
      server,
      'GET',
      '',
    );
    const definition = ruleNow.body.rules.find((r) => r.id === rule.id)!.definition as {
      action: Record<string, unknown>;
    };
    const edit = await hub(server, 'PUT', `/${rule.id}`, {
      definition: {
        ...definition,
        action: { ...definition.action, endsAt: new Date(Date.now() - 1000).toISOString() },
      },
    });
    expect(edit.status).toBe(200);
    // Its end is past: the prices go back by themselves.
    const end = await finished(server, (await runOfRule(rule.id, 2)).id);
    expect((await listing(world, kept!.id)).price).toBe('400.00');
    expect((await listing(world, changed!.id)).price).toBe('210.00');
    expect(end.items.find((i) => i.listingId === changed!.id)?.reason).toBe('changed_since');
    expect((await activityOf(server, kept!.id))[0]).toMatchObject({
      changes: { price: { before: '320.00', after: '400.00' } },
    });
    const undo = await hub<{ run: { id: number } }>(server, 'POST', `/runs/${end.run.id}/undo`);
    await finished(server, undo.body.run.id);
    expect((await listing(world, kept!.id)).price).toBe('320.00');
  });
});

describe('relist', () => {
  it('reactivates listings whose window ended unsold, with the chosen duration', async () => {
    const [expiring] = await makeListings(world, 'RL-1', [{ price: '150.00', cost: '50.00' }]);
    // 31 days on the marketplace clock: the 30-day window ends unsold.
    await world.harness.control('POST', '/clock', { advance_seconds: 31 * 86_400 });
    expect(await listing(world, expiring!.id)).toMatchObject({ unavailable_reason: 'expired' });
    const rule = await createRule({
      name: 'Relist expired',
      scope: { grade: 'RL-1' },
      action: { kind: 'relist', durationHours: 336 },
      floor: FLOOR,
    });
    const plan = await preview(rule.id);
    expect(plan.items.find((i) => i.listingId === expiring!.id)).toMatchObject({
      kind: 'write',
      after: { status: 'active', duration_hours: 336 },
    });
    const run = await runNow(rule.id);
    expect(run.run.counts.changed).toBe(1);
    expect(await listing(world, expiring!.id)).toMatchObject({
      status: 'active',
      unavailable_reason: null,
    });
    expect((await activityOf(server, expiring!.id))[0]).toMatchObject({ action: 'reactivate' });
    const undo = await hub<{ run: { id: number } }>(server, 'POST', `/runs/${run.run.id}/undo`);
    const undone = await finished(server, undo.body.run.id);
    expect(undone.run.counts.changed).toBe(1);
    expect((await listing(world, expiring!.id)).status).toBe('draft');
  });
});

describe('bad input', () => {
  it('refuses a malformed rule with field errors and keeps nothing', async () => {
    const before = await hub<{ rules: unknown[] }>(server, 'GET', '');
    const bad = await hub<{ errors: Record<string, string[]>; svc_error: { code: string } }>(
      server,
      'POST',
      '',
      {
        name: '',
        action: { kind: 'markdown', afterDays: -1 },
        floor: { ...FLOOR, fixed: '1.234' },
      },
    );
    expect(bad.status).toBe(422);
    expect(bad.body.svc_error.code).toBe('validation_error');
    expect(Object.keys(bad.body.errors)).toContain('name');
    expect(Object.keys(bad.body.errors)).toContain('floor.fixed');
    const after = await hub<{ rules: unknown[] }>(server, 'GET', '');
    expect(after.body.rules.length).toBe(before.body.rules.length);
  });
});
