import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningAppServer } from '../../src/server/app-server';
import {
  finished,
  hub,
  listing,
  makeListings,
  markdownRule,
  startServer,
  startWorld,
  type World,
} from '../rules/rules-world';

/**
 * The finding "Run now pressed twice runs the rule twice": a run's start looked for an unfinished
 * run of the rule, then read and planned the listings, and only then recorded its run, so a second
 * press (another tab, a double click) in between found none and started a second run beside the
 * first, each sending the whole plan. The same held for undo: two undos of one run both passed the
 * route's "undone already" check and each put the prices back.
 */

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

type Started = { run: { id: number } };

describe('a rule started or undone several times at once', () => {
  it('runs once, and every press is answered with that one run', async () => {
    const made = await makeListings(world, 'AT-ONCE', [
      { price: '100.00', cost: '20.00' },
      { price: '200.00', cost: '20.00' },
    ]);
    const created = await hub<{ rule: { id: number } }>(
      server,
      'POST',
      '',
      markdownRule('AT-ONCE'),
    );
    expect(created.status).toBe(201);
    const ruleId = created.body.rule.id;

    const presses = await Promise.all(
      [1, 2, 3].map(() => hub<Started>(server, 'POST', `/${ruleId}/run`)),
    );
    expect(presses.map((press) => press.status)).toEqual([202, 202, 202]);
    const ids = new Set(presses.map((press) => press.body.run.id));
    expect(ids.size).toBe(1);
    const [runId] = [...ids];
    const run = await finished(server, runId!);
    expect(run.run.counts.changed).toBe(2);
    const runs = await hub<{ runs: { id: number }[] }>(server, 'GET', `/${ruleId}/runs`);
    expect(runs.body.runs.map((one) => one.id)).toEqual([runId]);
    expect((await listing(world, made[0]!.id)).price).toBe('90.00');

    const undos = await Promise.all(
      [1, 2, 3].map(() => hub<Started>(server, 'POST', `/runs/${runId}/undo`)),
    );
    const undoIds = new Set(
      undos.filter((undo) => undo.status === 202).map((undo) => undo.body.run.id),
    );
    expect(undoIds.size).toBe(1);
    for (const undo of undos.filter((one) => one.status !== 202)) {
      expect(undo).toMatchObject({ status: 409, body: { svc_error: { code: 'already_undone' } } });
    }
    await finished(server, [...undoIds][0]!);
    const after = await hub<{ runs: { trigger: string }[] }>(server, 'GET', `/${ruleId}/runs`);
    expect(after.body.runs.filter((one) => one.trigger === 'undo')).toHaveLength(1);
    expect((await listing(world, made[0]!.id)).price).toBe('100.00');
  });
});
