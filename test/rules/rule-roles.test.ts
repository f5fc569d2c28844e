import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningAppServer } from '../../src/server/app-server';
import { Browser, codeOf, usersDb } from '../security/auth-http';
import { makeListings, markdownRule, startServer, startWorld, type World } from './rules-world';

let world: World;
let server: RunningAppServer;
const people: Record<'owner' | 'editor' | 'viewer', Browser> = {} as never;

beforeAll(async () => {
  world = await startWorld();
  server = await startServer(world, {
    auth: {
      usersDb: await usersDb([
        { name: 'olive', role: 'owner', password: 'olive-password-1234' },
        { name: 'eddie', role: 'editor', password: 'eddie-password-1234' },
        { name: 'vera', role: 'viewer', password: 'vera-password-1234' },
      ]),
    },
  });
  const host = new URL(server.url).host;
  for (const [role, name] of [
    ['owner', 'olive'],
    ['editor', 'eddie'],
    ['viewer', 'vera'],
  ] as const) {
    people[role] = new Browser(server.url, host);
    expect((await people[role].signIn(name, `${name}-password-1234`)).status).toBe(303);
  }
  await makeListings(world, 'RO-1', [{ price: '200.00', cost: '50.00' }]);
});

afterAll(async () => {
  await server?.close();
  await world?.harness.close();
});

const json = (body: string) => JSON.parse(body) as Record<string, unknown>;

describe('roles, enforced by the server', () => {
  it('owners create, edit, enable, run and undo; editors preview; viewers see', async () => {
    const { owner, editor, viewer } = people;
    // Editors and viewers cannot create.
    expect(codeOf(await editor.write('POST', '/hub/rules', markdownRule('RO-1')))).toBe(
      'role_forbidden',
    );
    expect(codeOf(await viewer.write('POST', '/hub/rules', markdownRule('RO-1')))).toBe(
      'role_forbidden',
    );
    // Without the session's token nothing is written.
    expect((await owner.write('POST', '/hub/rules', markdownRule('RO-1'), null)).status).toBe(403);

    const created = await owner.write('POST', '/hub/rules', markdownRule('RO-1'));
    expect(created.status).toBe(201);
    const rule = json(created.body).rule as { id: number; createdBy: string };
    expect(rule.createdBy).toBe('olive');

    expect(codeOf(await editor.write('PUT', `/hub/rules/${rule.id}`, { enabled: true }))).toBe(
      'role_forbidden',
    );
    expect((await owner.write('PUT', `/hub/rules/${rule.id}`, { enabled: true })).status).toBe(200);

    // Editors preview; viewers do not.
    const preview = await editor.write('POST', '/hub/rules/preview', { ruleId: rule.id });
    expect(preview.status).toBe(200);
    expect((json(preview.body).items as unknown[]).length).toBe(1);
    expect(codeOf(await viewer.write('POST', '/hub/rules/preview', { ruleId: rule.id }))).toBe(
      'role_forbidden',
    );

    // Viewers see the rules and their history.
    const seen = await viewer.request('/hub/rules');
    expect(seen.status).toBe(200);
    expect(json(seen.body).role).toBe('viewer');

    const editorRun = await editor.write('POST', `/hub/rules/${rule.id}/run`, undefined);
    expect(codeOf(editorRun)).toBe('role_forbidden');
    const run = await owner.write('POST', `/hub/rules/${rule.id}/run`, undefined);
    expect(run.status).toBe(202);
    const runId = (json(run.body).run as { id: number }).id;
    await server.rules!.runner.settled(runId);
    const history = await viewer.request(`/hub/rules/${rule.id}/runs`);
    expect((json(history.body).runs as { by: string }[])[0]?.by).toBe('olive');

    expect(codeOf(await editor.write('POST', `/hub/rules/runs/${runId}/undo`, undefined))).toBe(
      'role_forbidden',
    );
    expect((await owner.write('POST', `/hub/rules/runs/${runId}/undo`, undefined)).status).toBe(
      202,
    );

    // The rule's change in the activity log names the rule and who created it.
    const activity = json((await viewer.request('/hub/activity')).body).entries as {
      rule: { createdBy: string } | null;
    }[];
    expect(activity.some((entry) => entry.rule?.createdBy === 'olive')).toBe(true);

    expect(codeOf(await editor.write('DELETE', `/hub/rules/${rule.id}`, undefined))).toBe(
      'role_forbidden',
    );
    expect((await owner.write('DELETE', `/hub/rules/${rule.id}`, undefined)).status).toBe(204);
  });
});
