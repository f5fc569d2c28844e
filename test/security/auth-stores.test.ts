import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ActivityStore } from '../../src/server/activity/activity-store';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import { AccountsStore } from '../../src/server/auth/accounts-store';
import { hashPassword, verifyPassword } from '../../src/server/auth/passwords';
import { distPages } from '../../src/server/dist-pages';
import { Browser, fakeDist, SIGN_IN_HEAVY_MS } from './auth-http';

/**
 * The findings "`.sandbox/users.db` is created mode 0644" (every scrypt hash and session row
 * readable by any local user) and "scrypt N=2^15, under OWASP's minimum": the stores are now the
 * owner's only, and a password is hashed at OWASP's parameters, an older hash rehashed at the
 * next sign-in.
 */
const PASSWORD = 'a long password';
const apps: RunningAppServer[] = [];

afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

const modeOf = (path: string) => statSync(path).mode & 0o777;
const folder = () => mkdtempSync(join(tmpdir(), 'slabdesk-stores-'));

describe('the stores on disk', () => {
  it('are created readable by their owner only: the files, their -wal and -shm, the folder', () => {
    const previous = process.umask(0o022);
    try {
      for (const [kind, open] of [
        ['accounts', (path: string) => new AccountsStore(path)],
        ['activity', (path: string) => new ActivityStore(path)],
      ] as const) {
        const dir = join(folder(), 'nested', '.sandbox');
        const path = join(dir, `${kind}.db`);
        const store = open(path);
        try {
          if (store instanceof AccountsStore) {
            store.addUser({ name: 'ann', role: 'owner', passwordHash: 'x', createdAt: 1 });
          } else {
            store.insert({
              at: '2026-07-01T09:00:00.000Z',
              actor: null,
              action: 'update',
              method: 'PUT',
              path: '/api/2026-07/listings/1.json',
              listingId: '1',
              bulkJobId: null,
              changes: {},
              outcome: 'ok',
              status: 200,
              code: null,
              requestId: null,
            });
          }
          for (const file of [path, `${path}-wal`, `${path}-shm`]) {
            expect(modeOf(file), `${kind}: ${file}`).toBe(0o600);
          }
          expect(modeOf(dir), `${kind}: folder`).toBe(0o700);
          expect(modeOf(join(dir, '..')), `${kind}: the folder made above it`).toBe(0o700);
        } finally {
          store.close();
        }
      }
    } finally {
      process.umask(previous);
    }
  });

  it(
    'tightens a store an older version left readable by others',
    { timeout: SIGN_IN_HEAVY_MS },
    async () => {
      const path = join(folder(), 'users.db');
      const previous = process.umask(0o022);
      try {
        // As the older code left it: SQLite's default mode under the usual umask.
        const { default: Database } = await import('better-sqlite3');
        new Database(path).close();
        expect(modeOf(path)).toBe(0o644);
        new AccountsStore(path).close();
        expect(modeOf(path)).toBe(0o600);
      } finally {
        process.umask(previous);
      }
    },
  );
});

describe('password hashes', () => {
  it(
    'use OWASP’s scrypt parameters; an older hash still signs in and is rehashed then',
    { timeout: SIGN_IN_HEAVY_MS },
    async () => {
      const path = join(folder(), 'users.db');
      const store = new AccountsStore(path);
      const older = await hashPassword(PASSWORD, { N: 2 ** 15, r: 8, p: 1 });
      expect(older).toMatch(/^scrypt\$N=32768,r=8,p=1\$/);
      store.addUser({ name: 'ann', role: 'owner', passwordHash: older, createdAt: Date.now() });
      expect(await hashPassword('another password')).toMatch(/^scrypt\$N=131072,r=8,p=1\$/);

      const dist = fakeDist();
      const app = await startAppServer(
        {
          upstream: { baseUrl: 'http://127.0.0.1:9', apiKey: 'svc_live_x' },
          port: 0,
          auth: { usersDb: path, requireSignIn: true },
        },
        async () => distPages(dist),
      );
      apps.push(app);
      const host = `127.0.0.1:${app.port}`;
      const first = new Browser(app.url, host);
      expect((await first.signIn('ann', 'a wrong password')).status).toBe(401);
      expect(store.findUser('ann')!.passwordHash).toBe(older); // only a right password rehashes
      expect((await first.signIn('ann', PASSWORD)).status).toBe(303);

      const rehashed = store.findUser('ann')!.passwordHash;
      expect(rehashed).toMatch(/^scrypt\$N=131072,r=8,p=1\$/);
      expect(await verifyPassword(PASSWORD, rehashed)).toBe(true);
      // The session opened at that sign-in lives on, and the new hash signs in again.
      expect(store.countSessions('ann')).toBe(1);
      const session = JSON.parse((await first.request('/auth/session')).body) as { user: unknown };
      expect(session.user).toEqual({ name: 'ann', role: 'owner' });
      expect((await new Browser(app.url, host).signIn('ann', PASSWORD)).status).toBe(303);
      expect(store.findUser('ann')!.passwordHash).toBe(rehashed);
      store.close();
    },
  );
});
