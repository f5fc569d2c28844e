import { mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import { vitePages } from '../../src/server/vite-pages';
import { privateFolder } from '../../src/server/private-files';
import { startEmbeddedSandbox } from '../../src/main/embedded-sandbox';
import { raw } from '../support/raw-http';
import { Browser, usersDb } from './auth-http';

/**
 * The finding "any signed-in viewer downloads `/.sandbox/users.db`" under `npm run dev`: Vite
 * served every file of the project root. The dev server now hands Vite only its own modules,
 * the source tree and `public/`, and Vite itself denies the stores.
 */
const root = resolve(import.meta.dirname, '../..');
const SECRET = 'scrypt-hash-and-session-rows';
let app: RunningAppServer;
let viewer: Browser;
let store: string;

beforeAll(async () => {
  // A store where `npm run dev` keeps its own, with a marker no page may ever show.
  store = join(root, '.sandbox', `leak-check-${process.pid}.db`);
  mkdirSync(join(root, '.sandbox'), { recursive: true });
  writeFileSync(store, SECRET);
  writeFileSync(`${store}-wal`, SECRET);
  const usersFile = await usersDb([{ name: 'vic', role: 'viewer', password: 'viewer pw 123' }]);
  app = await startAppServer(
    {
      upstream: { baseUrl: 'http://127.0.0.1:9', apiKey: 'svc_test_unused' },
      port: 0,
      auth: { usersDb: usersFile, requireSignIn: true },
    },
    (server) => vitePages(server, root),
  );
  viewer = new Browser(app.url, new URL(app.url).host);
  expect((await viewer.signIn('vic', 'viewer pw 123')).status).toBe(303);
}, 120_000);

afterAll(async () => {
  await app?.close();
  rmSync(store, { force: true });
  rmSync(`${store}-wal`, { force: true });
});

describe('the dev server, signed in as a viewer', () => {
  it('serves nothing under .sandbox/, in any spelling, and nothing outside the app', async () => {
    const name = store.slice(store.lastIndexOf('/') + 1);
    const paths = [
      `/.sandbox/${name}`,
      `/.sandbox/${name}-wal`,
      `/.sandbox/${name}?import`,
      `/.sandbox/${name}?raw`,
      `/%2esandbox/${name}`,
      `/src/../.sandbox/${name}`,
      `/@fs${root}/.sandbox/${name}`,
      `/@fs${root}/.sandbox/${name}?raw`,
      `/@fs${root}/package.json`,
      '/.env',
      '/.git/config',
      '/package.json',
    ];
    for (const path of paths) {
      const answer = await viewer.request(path);
      expect(answer.body, path).not.toContain(SECRET);
      expect(answer.body, path).not.toContain('"devDependencies"');
    }
  });

  it('still serves the app’s own modules', async () => {
    const answer = await viewer.request('/src/main.tsx');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/javascript/);
  });

  it('serves the dependencies by their real path (a symlinked node_modules, as in a worktree)', async () => {
    const modules = realpathSync(join(root, 'node_modules'));
    const answer = await viewer.request(`/@fs${modules}/vite/dist/client/env.mjs`);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/javascript/);
    const beside = await viewer.request(`/@fs${modules}-not/vite/dist/client/env.mjs`);
    expect(beside.headers['content-type'] ?? '').not.toMatch(/javascript/);
  });
});

describe('the stores of npm run dev', () => {
  it('are kept in a folder only their owner may open, the demo store owner-only', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'slabdesk-dev-stores-'));
    const sandboxDir = join(folder, '.sandbox');
    mkdirSync(sandboxDir, { mode: 0o755 });
    privateFolder(sandboxDir);
    expect(statSync(sandboxDir).mode & 0o777).toBe(0o700);
    const db = join(sandboxDir, 'dev.db');
    const upstream = await startEmbeddedSandbox({ SLABDESK_SANDBOX_DB: db }, {});
    try {
      expect(statSync(db).mode & 0o777).toBe(0o600);
    } finally {
      await upstream.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('a server whose public address is https', () => {
  it('sends Strict-Transport-Security; one on plain http does not', async () => {
    const accounts = await usersDb([{ name: 'ann', role: 'owner', password: 'owner password 1' }]);
    const pages = async () => ({
      development: false,
      register: async () => {},
      pageHtml: async () => '<!doctype html><title>t</title>',
    });
    const hstsOf = async (publicUrl: string) => {
      const server = await startAppServer(
        {
          upstream: { baseUrl: 'http://127.0.0.1:9', apiKey: 'svc_test_unused' },
          port: 0,
          allowedHosts: [new URL(publicUrl).host],
          auth: { usersDb: accounts, publicUrl },
        },
        pages,
      );
      try {
        const answer = await raw(server.url, '/healthz', {
          headers: { host: new URL(publicUrl).host },
        });
        expect(answer.status).toBe(200);
        return answer.headers['strict-transport-security'];
      } finally {
        await server.close();
      }
    };
    expect(await hstsOf('https://cards.example.com')).toMatch(/^max-age=31536000/);
    expect(await hstsOf('http://192.168.1.20:4173')).toBeUndefined();
  });
});
