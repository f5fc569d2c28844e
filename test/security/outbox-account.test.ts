// @vitest-environment jsdom
// idb recognises requests by the global IndexedDB classes: fake-indexeddb's, installed here.
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { QueryClient } from '@tanstack/react-query';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client';
import { outbox, type OutboxItem } from '../../src/api/outbox/outbox';
import { dropHeld, syncOutbox } from '../../src/api/outbox/outbox-sync';
import { connectOutboxToSession } from '../../src/app/session-end';
import { sessionHeaders } from '../../src/lib/session';
import { DEMO_LIVE_TOKEN, startSandbox, type RunningSandbox } from '../../src/sandbox';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import { distPages } from '../../src/server/dist-pages';
import { Browser, fakeDist, SIGN_IN_HEAVY_MS, usersDb } from './auth-http';

/**
 * The finding "an editor presses Sold here offline; the editor's sessions end; the owner signs in
 * on the same tablet: the outbox sends the editor's deactivation under the owner's session, and
 * the ledger records the sale as the owner's. Queued items carry no account."
 *
 * The tablet here is the real outbox (IndexedDB), its sync and the page's boot facts, read from
 * the real server's page for whoever is signed in; the tablet's cookie jar is a `Browser` whose
 * cookie the page's requests carry (jsdom has no cookie jar for fetch). Failed on the main of
 * before this test: the editor's sale went out under the owner's session (a deactivation with the
 * owner as actor).
 */
const EDITOR = { name: 'eddie', role: 'editor' as const, password: 'eddie-tablet-pass-2026' };
const OWNER = { name: 'olive', role: 'owner' as const, password: 'olive-tablet-pass-2026' };

let sandbox: RunningSandbox;
let app: RunningAppServer;
let host: string;
/** The tablet's one cookie jar: whoever signed in last on it. */
let tablet: Browser;
const active: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, db: ':memory:', seed: 'demo' });
  const users = await usersDb([EDITOR, OWNER]);
  const dist = fakeDist();
  app = await startAppServer(
    {
      upstream: { baseUrl: sandbox.url, apiKey: DEMO_LIVE_TOKEN },
      port: 0,
      activity: { path: ':memory:' },
      auth: { usersDb: users, requireSignIn: true },
    },
    async () => distPages(dist),
  );
  host = new URL(app.url).host;
  tablet = new Browser(app.url, host);
  const page = (await (
    await fetch(`${sandbox.url}/2026-07/listings.json?status=active&limit=50`, {
      headers: { 'X-Service-Access-Token': DEMO_LIVE_TOKEN },
    })
  ).json()) as { listings: { id: string; unavailable_reason?: string | null; is_lot: boolean }[] };
  active.push(
    ...page.listings
      .filter((listing) => !listing.unavailable_reason && !listing.is_lot)
      .map((listing) => listing.id),
  );
  // The page's own requests carry the tablet's cookie, as a browser's same-origin fetch does.
  const network = globalThis.fetch;
  globalThis.fetch = (input, init = {}) => {
    const headers = new Headers(init.headers);
    if (tablet.cookies.size > 0) headers.set('cookie', tablet.cookieHeader());
    const method = init.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') {
      headers.set('origin', tablet.origin);
      headers.set('sec-fetch-site', 'same-origin');
    }
    return network(input, { ...init, headers });
  };
}, SIGN_IN_HEAVY_MS);

afterAll(async () => {
  await app?.close();
  await sandbox?.close();
});

/** Signs in on the tablet and opens the dashboard: the page's boot facts are that person's. */
async function signInOnTablet(account: { name: string; password: string }) {
  const answer = await tablet.signIn(account.name, account.password, '/shows');
  expect(answer.status, answer.body).toBe(303);
  const page = await tablet.request('/shows');
  expect(page.status).toBe(200);
  const head = new DOMParser().parseFromString(page.body, 'text/html').head;
  for (const meta of document.head.querySelectorAll('meta[name^="slabdesk-"]')) meta.remove();
  for (const meta of head.querySelectorAll('meta[name^="slabdesk-"]')) {
    document.head.append(meta.cloneNode());
  }
}

/** Sign out everywhere, from the account's other device. */
async function endEverySession(account: { name: string; password: string }) {
  const phone = new Browser(app.url, host);
  expect((await phone.signIn(account.name, account.password)).status).toBe(303);
  const out = await phone.request('/auth/sign-out-everywhere', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf: await phone.csrf() }).toString(),
  });
  expect(out.status).toBe(303);
}

async function newShow(): Promise<string> {
  const key = randomUUID();
  const made = await tablet.write('POST', '/hub/shows', {
    key,
    name: `Hall ${key.slice(0, 4)}`,
    date: '2026-11-28',
  });
  expect(made.status).toBe(201);
  return key;
}

/** "Sold here" as the page queues it: the listing's deactivation, then the ledger entry. */
function soldHere(listingId: string, showKey: string) {
  return outbox().add({
    kind: 'sell-at-show',
    label: `Sold here: ${listingId} for $150.00`,
    listingId,
    showKey,
    deactivateKey: randomUUID(),
    listingUpdatedAt: null,
    sale: {
      key: randomUUID(),
      soldAt: new Date().toISOString(),
      listingId,
      title: 'A slab sold at the table',
      price: '150.00',
      certNumber: null,
      grader: null,
      tradeIn: null,
      cost: null,
    },
  });
}

async function activity(listingId: string) {
  const answer = await tablet.request(`/hub/activity?listing=${encodeURIComponent(listingId)}`);
  return (JSON.parse(answer.body) as { entries: { action: string; actor: { name: string } }[] })
    .entries;
}

async function ledger(showKey: string) {
  const answer = await tablet.request(`/hub/shows/${showKey}`);
  return JSON.parse(answer.body) as { entries: { listingId: string; soldBy: string | null }[] };
}

async function listingStatus(id: string): Promise<string> {
  const answer = await fetch(`${sandbox.url}/2026-07/listings/${id}.json`, {
    headers: { 'X-Service-Access-Token': DEMO_LIVE_TOKEN },
  });
  return ((await answer.json()) as { listing: { status: string } }).listing.status;
}

const itemOf = (seq: number): OutboxItem | undefined =>
  outbox()
    .snapshot()
    .find((item) => item.seq === seq);

describe('a queued write belongs to the account that made it', () => {
  it(
    'is never sent under another account’s session: held for its maker, sent when they sign in, or dropped with a note',
    async () => {
      const stop = connectOutboxToSession();
      const client = createClient({
        baseUrl: `${app.url}/api`,
        pacing: { enabled: false, maxInFlight: 2 },
        headers: ({ method }) => sessionHeaders(method),
      });
      const queryClient = new QueryClient();
      const [first, second] = [active[0]!, active[1]!];

      // The editor, at the table with no network: two sales wait in the outbox.
      await signInOnTablet(EDITOR);
      const show = await newShow();
      const kept = await soldHere(first, show);
      const toDrop = await soldHere(second, show);
      expect(kept.by).toMatchObject({ name: EDITOR.name });
      expect(kept.by?.session).toMatch(/^[\w-]{16,}$/);

      // The editor's sessions end (signed out everywhere from their phone); the owner signs in
      // on the same tablet; the network is back and the outbox sends.
      await endEverySession(EDITOR);
      await signInOnTablet(OWNER);
      await syncOutbox(client, queryClient);
      expect(itemOf(kept.seq)).toMatchObject({
        state: 'held',
        outcome: 'Made by eddie: sign in as eddie to send it, or drop it.',
      });
      // Nothing went out under the owner's session: still on sale, no sale in the ledger.
      expect(await listingStatus(first)).toBe('active');
      expect(await activity(first)).toEqual([]);
      expect((await ledger(show)).entries).toEqual([]);

      // The owner drops one: not sent, and the row says what was dropped.
      await dropHeld(itemOf(toDrop.seq)!);
      expect(itemOf(toDrop.seq)).toMatchObject({
        state: 'dropped',
        outcome: 'Dropped, not sent (made by eddie).',
      });

      // The editor signs in again (a new session of the same account): theirs goes, as theirs.
      await endEverySession(OWNER);
      await signInOnTablet(EDITOR);
      await syncOutbox(client, queryClient);
      expect(itemOf(kept.seq)).toMatchObject({
        state: 'conflict',
        outcome: expect.stringContaining('Recorded in the ledger.'),
      });
      // Recorded as the editor's sale; the marketplace refused the editor's deactivation itself
      // (editors may not deactivate), as it would have had the editor sent it at the table.
      expect((await ledger(show)).entries).toEqual([
        expect.objectContaining({ listingId: first, soldBy: EDITOR.name }),
      ]);
      expect(await listingStatus(first)).toBe('active');
      expect(await activity(first)).toEqual([]);
      // The dropped one never went.
      expect(await listingStatus(second)).toBe('active');
      stop();
    },
    SIGN_IN_HEAVY_MS,
  );
});
