import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  MAX_STREAMS_PER_SESSION,
  SESSION_SWEEP_MS,
  type SessionLiveness,
} from '../../src/server/hub/server-hub';
import { Browser, testClock, usersDb } from './auth-http';
import {
  deliver,
  openStream,
  sessionIdOf,
  startSessionHubServer,
  until,
  type OpenStream,
  type SessionHubServer,
} from './hub-session-server';

/**
 * Issue 41's findings on the event stream, over HTTP behind a real sign-in gate: one viewer
 * filling every stream slot, and streams that outlive their session. Each failed on d7213af.
 */
const OWNER = { name: 'ann', role: 'owner' as const, password: 'ann-password-1234' };
const VIEWER = { name: 'val', role: 'viewer' as const, password: 'val-password-1234' };

let server: SessionHubServer;
let clock: ReturnType<typeof testClock>;
const streams: OpenStream[] = [];
let counter = 0;
const freshId = () => `evt_streams${Date.now()}${++counter}`;
const sale = (id: string) => JSON.stringify({ id: `ord_${id}`, total_price: '120.00', note: id });

async function start(liveness?: (users: SessionHubServer['users']) => SessionLiveness) {
  clock = testClock(Date.now());
  server = await startSessionHubServer({
    usersDb: await usersDb([OWNER, VIEWER]),
    now: clock.now,
    ...(liveness ? { liveness } : {}),
  });
}

async function signedIn(account: { name: string; password: string }): Promise<Browser> {
  const browser = new Browser(server.url, new URL(server.url).host);
  const answer = await browser.signIn(account.name, account.password);
  expect(answer.status, 'signed in').toBe(303);
  return browser;
}

async function tab(browser: Browser): Promise<OpenStream> {
  const stream = await openStream(server.url, browser.cookieHeader());
  streams.push(stream);
  return stream;
}

async function signOut(browser: Browser, everywhere = false): Promise<void> {
  const token = await browser.csrf();
  const answer = await browser.request(
    everywhere ? '/auth/sign-out-everywhere' : '/auth/sign-out',
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf: token }).toString(),
    },
  );
  expect(answer.status).toBe(303);
}

afterEach(async () => {
  for (const stream of streams.splice(0)) stream.close();
  await server?.close();
});

describe('event-stream slots', () => {
  beforeEach(() => start());

  it('one viewer opening 200 streams keeps its newest few; the owner’s tab still opens and gets the sale', async () => {
    const viewer = await signedIn(VIEWER);
    const owner = await signedIn(OWNER);
    const viewerTabs: OpenStream[] = [];
    for (let i = 0; i < 200; i++) viewerTabs.push(await tab(viewer));
    expect(viewerTabs.every((t) => t.status === 200)).toBe(true);
    await until(
      () => viewerTabs.filter((t) => !t.isEnded()).length <= MAX_STREAMS_PER_SESSION,
      'the viewer’s oldest streams closed',
    );
    // The newest stay open: each closed one was the session's oldest.
    expect(viewerTabs.slice(-MAX_STREAMS_PER_SESSION).every((t) => !t.isEnded())).toBe(true);
    expect(server.hub.sessionStreamCount(sessionIdOf(viewer))).toBe(MAX_STREAMS_PER_SESSION);

    const ownerTab = await tab(owner);
    expect(ownerTab.status).toBe(200);
    const id = freshId();
    expect(await deliver(server.url, id, sale(id))).toBe(200);
    await until(() => ownerTab.text().includes(id), 'the owner’s tab got the sale');
    expect(viewerTabs[0]!.text()).toContain('replaced_by_newer_tab');
  });
});

describe('streams of a session that ends', () => {
  it('close at sign-out, before the next sale reaches them', async () => {
    await start();
    const owner = await signedIn(OWNER);
    const other = await signedIn(OWNER);
    const [first, second, kept] = [await tab(owner), await tab(owner), await tab(other)];
    await signOut(owner);
    const id = freshId();
    expect(await deliver(server.url, id, sale(id))).toBe(200);
    await Promise.all([first.ended, second.ended]);
    expect(first.text()).not.toContain(id);
    expect(second.text()).not.toContain(id);
    // The account's other session is not touched.
    await until(() => kept.text().includes(id), 'the other session’s tab got the sale');
    expect(kept.isEnded()).toBe(false);
  });

  it('close at sign-out everywhere, every session’s', async () => {
    await start();
    const phone = await signedIn(OWNER);
    const laptop = await signedIn(OWNER);
    const viewer = await signedIn(VIEWER);
    const tabs = [await tab(phone), await tab(laptop), await tab(laptop)];
    const viewerTab = await tab(viewer);
    await signOut(laptop, true);
    const id = freshId();
    expect(await deliver(server.url, id, sale(id))).toBe(200);
    await Promise.all(tabs.map((t) => t.ended));
    for (const t of tabs) expect(t.text()).not.toContain(id);
    await until(() => viewerTab.text().includes(id), 'the viewer’s tab got the sale');
  });

  it('close when the account is removed from another process, with no sale to push', async () => {
    await start();
    const owner = await signedIn(OWNER);
    const stream = await tab(owner);
    const removedAt = Date.now();
    // As `npm run users -- remove` does, on its own handle of the users file.
    expect(server.users.removeUser(OWNER.name)).toBe(true);
    await stream.ended;
    expect(Date.now() - removedAt).toBeLessThan(SESSION_SWEEP_MS + 1_500);
    expect(stream.text()).toContain('session_ended');
  });

  it('close when the session expires', async () => {
    await start();
    const owner = await signedIn(OWNER);
    const stream = await tab(owner);
    clock.advance(25 * 3_600_000);
    await stream.ended;
    expect(stream.text()).toContain('session_ended');
  });

  it('close at once when the sign-in side reports the end', async () => {
    const listeners = new Set<(ids: readonly string[]) => void>();
    const ended = new Set<string>();
    await start(() => ({
      alive: (id) => !ended.has(id),
      onEnded(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    }));
    const owner = await signedIn(OWNER);
    const stream = await tab(owner);
    const id = sessionIdOf(owner);
    const at = Date.now();
    ended.add(id);
    for (const listener of listeners) listener([id]);
    await stream.ended;
    expect(Date.now() - at).toBeLessThan(SESSION_SWEEP_MS / 2);
  });
});
