// @vitest-environment jsdom
// idb recognises requests by the global IndexedDB classes: fake-indexeddb's, installed here.
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { render, screen, cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient } from '../../src/client';
import { pingQuery } from '../../src/api/connection-query';
import { keptDb } from '../../src/api/kept/kept-db';
import { outbox } from '../../src/api/outbox/outbox';
import { ClearedNote } from '../../src/app/cleared-note';
import {
  checkKeptDataAtOpen,
  connectOutboxToSession,
  dismissClearedNote,
} from '../../src/app/session-end';
import { createQueryClient } from '../../src/lib/query-client';
import { noteServerSeen, resetSessionEnded, sessionHeaders } from '../../src/lib/session';
import { DEMO_LIVE_TOKEN, startSandbox, type RunningSandbox } from '../../src/sandbox';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import { distPages } from '../../src/server/dist-pages';
import { Browser, fakeDist, SIGN_IN_HEAVY_MS, usersDb } from './auth-http';

/**
 * The finding "Sign out everywhere from a second device: the first browser, offline, opens
 * /listings with the owner shown as signed in and the kept data; the kept pages and the databases
 * stay until someone signs out on that same page; a password change, a removal or an expiry
 * clears nothing". The page's part (the service worker's is test/e2e/session-end-offline.spec.ts):
 * the first time the page reaches its server after the session ended (any call answers 401
 * sign_in_required) the seller is told what was waiting to be sent, then the kept copies, the
 * outbox and storage are gone; kept data not seen by its server for over the setting (7 days) is
 * cleared at the next open. On the main of before, the 401 only raised the banner: both
 * databases stayed, and an old copy was opened as it was.
 */
const OWNER = { name: 'olive', role: 'owner' as const, password: 'olive-device-pass-2026' };

let sandbox: RunningSandbox;
let app: RunningAppServer;
let tablet: Browser;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, db: ':memory:', seed: 'demo' });
  const dist = fakeDist();
  app = await startAppServer(
    {
      upstream: { baseUrl: sandbox.url, apiKey: DEMO_LIVE_TOKEN },
      port: 0,
      activity: { path: ':memory:' },
      auth: { usersDb: await usersDb([OWNER]), requireSignIn: true },
    },
    async () => distPages(dist),
  );
  tablet = new Browser(app.url, new URL(app.url).host);
  // The page's own requests carry the tablet's cookie, as a browser's same-origin fetch does.
  const network = globalThis.fetch;
  globalThis.fetch = (input, init = {}) => {
    const headers = new Headers(init.headers);
    if (tablet.cookies.size > 0) headers.set('cookie', tablet.cookieHeader());
    return network(input, { ...init, headers });
  };
}, SIGN_IN_HEAVY_MS);

afterAll(async () => {
  await app?.close();
  await sandbox?.close();
});

afterEach(() => {
  cleanup();
  dismissClearedNote();
  resetSessionEnded();
});

/** Signs in on the tablet and takes the page's boot facts from the server's page. */
async function signInOnTablet() {
  expect((await tablet.signIn(OWNER.name, OWNER.password, '/listings')).status).toBe(303);
  const page = await tablet.request('/listings');
  const head = new DOMParser().parseFromString(page.body, 'text/html').head;
  for (const meta of document.head.querySelectorAll('meta[name^="slabdesk-"]')) meta.remove();
  for (const meta of head.querySelectorAll('meta[name^="slabdesk-"]')) {
    document.head.append(meta.cloneNode());
  }
}

/** What this browser keeps of the account: a kept copy and a sale waiting in the outbox. */
async function keepSomething() {
  await keptDb()!.putChunk({ collection: 'listings', scope: 'seller' }, 0, [{ id: 'lst_1' }]);
  await outbox().add({
    kind: 'sell-at-show',
    label: 'Sold here: 2018 Prizm Luka Doncic for $150.00',
    listingId: 'lst_1',
    showKey: randomUUID(),
    deactivateKey: randomUUID(),
    listingUpdatedAt: null,
    sale: {
      key: randomUUID(),
      soldAt: new Date().toISOString(),
      listingId: 'lst_1',
      title: '2018 Prizm Luka Doncic',
      price: '150.00',
      certNumber: null,
      grader: null,
      tradeIn: null,
      cost: null,
    },
  });
  expect(await ours()).toEqual(['slabdesk-kept', 'slabdesk-outbox']);
}

const ours = async () =>
  (await indexedDB.databases())
    .map((db) => db.name ?? '')
    .filter((name) => name.startsWith('slabdesk'))
    .sort();

describe('a session’s end reaches this device', () => {
  it(
    'signed out everywhere elsewhere: the next call clears the kept data, after saying what was waiting',
    async () => {
      const stop = connectOutboxToSession();
      await signInOnTablet();
      await keepSomething();
      render(<ClearedNote />);

      // Sign out everywhere, from the owner's phone.
      const phone = new Browser(app.url, new URL(app.url).host);
      expect((await phone.signIn(OWNER.name, OWNER.password)).status).toBe(303);
      const out = await phone.request('/auth/sign-out-everywhere', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf: await phone.csrf() }).toString(),
      });
      expect(out.status).toBe(303);

      // The tablet reaches its server again: its connection check is refused.
      const client = createClient({
        baseUrl: `${app.url}/api`,
        pacing: { enabled: false, maxInFlight: 2 },
        headers: ({ method }) => sessionHeaders(method),
      });
      const queryClient = createQueryClient({ retry: false });
      await expect(queryClient.fetchQuery(pingQuery(client))).rejects.toMatchObject({
        code: 'sign_in_required',
      });

      const note = await screen.findByRole('alert');
      expect(note).toHaveTextContent(
        'Your session ended, so this device’s copy of your data was cleared. This change was waiting to be sent and was not sent: Sold here: 2018 Prizm Luka Doncic for $150.00 (by olive).',
      );
      await vi.waitFor(async () => expect(await ours()).toEqual([]));
      expect(outbox().snapshot()).toEqual([]);
      expect(localStorage.length).toBe(0);
      stop();
    },
    SIGN_IN_HEAVY_MS,
  );

  it('kept data its server has not seen for over 7 days is cleared at the next open', async () => {
    await keepSomething();
    const now = Date.now();
    noteServerSeen(now - 8 * 24 * 60 * 60 * 1000);
    render(<ClearedNote />);
    await checkKeptDataAtOpen(now);
    expect(await ours()).toEqual([]);
    expect(screen.getByRole('alert')).toHaveTextContent(
      'This device had not reached the server for over 7 days, so its copy of your data was cleared. This change was waiting',
    );

    // Seen within the week: nothing is cleared.
    await keepSomething();
    noteServerSeen(now - 6 * 24 * 60 * 60 * 1000);
    dismissClearedNote();
    await checkKeptDataAtOpen(now);
    expect(await ours()).toEqual(['slabdesk-kept', 'slabdesk-outbox']);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
