import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AccountsStore } from '../../src/server/auth/accounts-store';
import { verifyPassword } from '../../src/server/auth/passwords';
import { SIGN_IN_HEAVY_MS } from './auth-http';

/** `npm run users` and `npm start`, as a seller runs them: real processes, real files. */
const ROOT = resolve(__dirname, '../..');

function run(
  script: string,
  args: string[],
  env: Record<string, string>,
  stdin = '',
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

const CLI = 'src/server/auth/users-cli.ts';

describe('npm run users', { timeout: SIGN_IN_HEAVY_MS }, () => {
  it('adds (password from stdin), lists, changes a password (ending sessions) and removes', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'slabdesk-cli-')), 'nested', 'users.db');
    const env = { SLABDESK_USERS_DB: db };
    const users = (args: string[], stdin = '') => run(CLI, args, env, stdin);

    const added = await users(['add', 'ann', '--role', 'owner'], 'first password 1\nignored\n');
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('Added ann (owner).');
    expect((await users(['add', 'ed', '--role', 'editor'], 'editor password\n')).code).toBe(0);

    // The password is hashed (scrypt, salted), never kept as typed.
    const store = new AccountsStore(db);
    try {
      const ann = store.findUser('ann')!;
      expect(ann.passwordHash).not.toContain('first password 1');
      expect(ann.passwordHash).toMatch(/^scrypt\$N=131072,r=8,p=1\$/);
      expect(await verifyPassword('first password 1', ann.passwordHash)).toBe(true);
      expect(await verifyPassword('ignored', ann.passwordHash)).toBe(false);

      const short = await users(['add', 'bob', '--role', 'viewer'], 'short\n');
      expect(short.code).toBe(1);
      expect(short.stderr).toContain('at least 10 characters');
      const taken = await users(['add', 'ANN', '--role', 'viewer'], 'another password\n');
      expect(taken.code).toBe(1);
      expect(taken.stderr).toContain('has an account already');
      const badRole = await users(['add', 'bob', '--role', 'admin'], 'another password\n');
      expect(badRole.code).toBe(2);
      expect(badRole.stderr).toContain('--role must be one of owner, editor, viewer');
      const badName = await users(['add', 'bob smith', '--role', 'viewer'], 'another password\n');
      expect(badName.code).toBe(2);

      // Two sessions of ann's, one of ed's, as the server opens them.
      for (const [id, name] of [
        ['a1', 'ann'],
        ['a2', 'ann'],
        ['e1', 'ed'],
      ] as const) {
        store.addSession({
          idHash: id,
          userName: name,
          createdAt: Date.now(),
          lastSeenAt: Date.now(),
          csrfToken: 't',
          clientAddress: '127.0.0.1',
          userAgent: 'test',
        });
      }
      const listed = await users(['list']);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toMatch(/NAME\s+ROLE\s+CREATED\s+SESSIONS/);
      expect(listed.stdout).toMatch(/ann\s+owner\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2}\s+2/);
      expect(listed.stdout).toMatch(/ed\s+editor\s+\S+ \S+\s+1/);

      const passwd = await users(['passwd', 'ann'], 'second password 2\n');
      expect(passwd.code).toBe(0);
      expect(store.countSessions('ann')).toBe(0);
      expect(store.countSessions('ed')).toBe(1);
      expect(await verifyPassword('second password 2', store.findUser('ann')!.passwordHash)).toBe(
        true,
      );

      const removed = await users(['remove', 'ed']);
      expect(removed.code).toBe(0);
      expect(store.findUser('ed')).toBeUndefined();
      expect(store.countSessions('ed')).toBe(0);
      const again = await users(['remove', 'ed']);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('There is no account "ed"');
      expect((await users(['frobnicate'])).code).toBe(2);
    } finally {
      store.close();
    }
  });
});

describe('npm start, exposed without an account', () => {
  it('exits non-zero and says how to add the first owner', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'slabdesk-start-')), 'users.db');
    const started = await run('src/main/start.ts', ['--host', '0.0.0.0', '--port', '0'], {
      SLABDESK_USERS_DB: db,
      // A deployment's API (not reached): no embedded sandbox to start.
      SVC_BASE_URL: 'http://127.0.0.1:9',
      SVC_API_KEY: 'svc_live_not_used',
      SLABDESK_HUB_DB: ':memory:',
    });
    expect(started.code).toBe(1);
    expect(started.stderr).toContain('npm run users -- add NAME --role owner');
    expect(started.stderr).toContain('bound to 0.0.0.0');
    expect(started.stdout).not.toContain('ready');
  });
});
