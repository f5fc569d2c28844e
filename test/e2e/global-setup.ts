import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FullConfig } from '@playwright/test';
import { build } from 'vite';
import { startAppServer } from '../../src/server/app-server';
import { distPages } from '../../src/server/dist-pages';
import { DEMO_LIVE_TOKEN, DEMO_SELLER_ID, DEMO_TEST_TOKEN, startSandbox } from '../../src/sandbox';
import { E2E_ACCOUNTS } from './sign-in-accounts';
import { E2E_SERVER_NAMES, type E2EServerName } from './server-slots';
import { writeUsersDb } from '../support/users-db';

/**
 * The accounts of the sign-in server, as `npm run users -- add` makes them. The passwords are
 * known to the sign-in spec (test/e2e/sign-in-accounts.ts); a distinct account takes the wrong
 * password, so the attempt limits never touch the ones that sign in.
 */
const signInUsersDb = (folder: string): Promise<string> =>
  writeUsersDb(join(folder, 'users.db'), Object.values(E2E_ACCOUNTS));

/**
 * Builds the dashboard, starts a fresh sandbox (in memory, demo seed) and the production server
 * in front of it, each on a free port. `SLABDESK_E2E_SKIP_BUILD=1` reuses an existing dist/.
 */
export default async function globalSetup(config: FullConfig) {
  const root = resolve(import.meta.dirname, '../..');
  if (process.env.SLABDESK_E2E_SKIP_BUILD !== '1') {
    await build({ root, logLevel: 'warn' });
  }
  // One set of servers per worker, so no worker's reads, counts or writes meet another's.
  const closers: (() => Promise<void>)[] = [];
  for (let slot = 0; slot < config.workers; slot += 1) {
    const urls = await startServerSet(root);
    closers.push(urls.close);
    for (const name of E2E_SERVER_NAMES) {
      process.env[`${name}_${slot}`] = urls[name];
      // The unnumbered names: the first set's (for a run of one worker, and the runner itself).
      if (slot === 0) process.env[name] = urls[name];
    }
  }
  return async () => {
    for (const close of closers) await close();
  };
}

/** The sandboxes and servers one worker's specs use, and how to stop them. */
async function startServerSet(
  root: string,
): Promise<Record<E2EServerName, string> & { close: () => Promise<void> }> {
  const sandbox = await startSandbox({
    port: 0,
    db: ':memory:',
    seed: 'demo',
    // As the embedded sandbox of `npm run dev`: the hub's photos on this machine, plain http.
    loopbackImages: true,
  });
  // The live servers register their webhook endpoint with their sandbox, as `npm run dev` does.
  const app = await startAppServer(
    {
      upstream: { baseUrl: sandbox.url, apiKey: DEMO_LIVE_TOKEN },
      port: 0,
      hub: { registerWith: { sandboxUrl: sandbox.url, sellerId: DEMO_SELLER_ID } },
      // The activity log, as `npm start` keeps it (in memory here).
      activity: { path: ':memory:' },
    },
    async () => distPages(resolve(root, 'dist/page')),
  );
  // The same sandbox behind the demo test key: what a seller sees in test mode.
  const testApp = await startAppServer(
    { upstream: { baseUrl: sandbox.url, apiKey: DEMO_TEST_TOKEN }, port: 0 },
    async () => distPages(resolve(root, 'dist/page')),
  );
  // A second demo sandbox that serves exactly the spec's documented fields, and the app in front
  // of it: the `documented` project runs the seller and bulk journeys there.
  const documentedSandbox = await startSandbox({
    port: 0,
    db: ':memory:',
    seed: 'demo',
    shapes: 'documented',
  });
  const documentedApp = await startAppServer(
    {
      upstream: { baseUrl: documentedSandbox.url, apiKey: DEMO_LIVE_TOKEN },
      port: 0,
      hub: { registerWith: { sandboxUrl: documentedSandbox.url, sellerId: DEMO_SELLER_ID } },
    },
    async () => distPages(resolve(root, 'dist/page')),
  );
  // The same demo sandbox behind a server that requires sign-in (as an exposed one does), with
  // an owner, an editor and a viewer: the sign-in spec's server.
  const usersFolder = mkdtempSync(join(tmpdir(), 'slabdesk-e2e-users-'));
  const signInApp = await startAppServer(
    {
      upstream: { baseUrl: sandbox.url, apiKey: DEMO_LIVE_TOKEN },
      port: 0,
      auth: { usersDb: await signInUsersDb(usersFolder), requireSignIn: true },
      activity: { path: ':memory:' },
    },
    async () => distPages(resolve(root, 'dist/page')),
  );
  return {
    SLABDESK_E2E_SIGN_IN_URL: signInApp.url,
    SLABDESK_E2E_DOCUMENTED_URL: documentedApp.url,
    SLABDESK_E2E_DOCUMENTED_SANDBOX: documentedSandbox.url,
    SLABDESK_E2E_URL: app.url,
    SLABDESK_E2E_TEST_MODE_URL: testApp.url,
    SLABDESK_E2E_SANDBOX: sandbox.url,
    close: async () => {
      await app.close();
      await testApp.close();
      await documentedApp.close();
      await signInApp.close();
      rmSync(usersFolder, { recursive: true, force: true });
      await sandbox.close();
      await documentedSandbox.close();
    },
  };
}
