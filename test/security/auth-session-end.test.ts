import { afterEach, describe, expect, it } from 'vitest';
import { AccountsStore } from '../../src/server/auth/accounts-store';
import { AuthGate } from '../../src/server/auth/auth-gate';
import { sessionCookieName } from '../../src/server/auth/auth-gate';
import { hashSessionId, type EndedSessions } from '../../src/server/auth/accounts-store';
import { Browser, gateServer, SIGN_IN_HEAVY_MS, testClock, usersDb } from './auth-http';

/**
 * The finding "sign out everywhere and `npm run users -- remove` end the sessions, but an event
 * stream opened before keeps delivering". The stream is the hub's (hub-stream-sessions.test.ts
 * closes it); the gate's part is to tell an end made here at once, and to answer `book.alive`
 * false for one made by another process or by expiry, which the hub looks up every few seconds.
 */
const PASSWORD = { ann: 'a long password', ed: 'editor password 1' };
const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function serve(options: { now?: () => number } = {}) {
  const db = await usersDb([
    { name: 'ann', role: 'owner', password: PASSWORD.ann },
    { name: 'ed', role: 'editor', password: PASSWORD.ed },
  ]);
  const gate = new AuthGate(
    { usersDb: db, requireSignIn: true, ...options },
    { bindHost: '127.0.0.1' },
  );
  const ended: { ended: EndedSessions; userName: string }[] = [];
  gate.book.onSessionsEnded((which, userName) => ended.push({ ended: which, userName }));
  const server = await gateServer(gate);
  closers.push(async () => {
    await server.close();
    gate.close();
  });
  const browser = () => new Browser(server.url, `127.0.0.1:${server.port}`);
  return { gate, db, ended, browser };
}

/** The browser's session: its id hash and its CSRF token, as the page would be given it. */
function sessionOf(db: string, browser: Browser) {
  const idHash = hashSessionId(browser.cookies.get(sessionCookieName(false))!);
  const store = new AccountsStore(db);
  const csrf = store.findSession(idHash)!.csrfToken;
  store.close();
  return { idHash, csrf };
}

describe('the end of a session is told at once', () => {
  it(
    'on sign-out and on sign out everywhere: those sessions end, others live',
    { timeout: SIGN_IN_HEAVY_MS },
    async () => {
      const { gate, db, ended, browser } = await serve();
      const [phone, laptop, tablet, editor] = [browser(), browser(), browser(), browser()];
      for (const device of [phone, laptop, tablet]) await device.signIn('ann', PASSWORD.ann);
      await editor.signIn('ed', PASSWORD.ed);
      const [onPhone, onLaptop, onTablet, onEditor] = [phone, laptop, tablet, editor].map((b) =>
        sessionOf(db, b),
      );

      await phone.request('/auth/sign-out', {
        method: 'POST',
        headers: { 'x-slabdesk-csrf': onPhone!.csrf },
      });
      expect(ended).toEqual([{ ended: [onPhone!.idHash], userName: 'ann' }]);
      expect(gate.book.alive(onPhone!.idHash)).toBe(false);
      expect(gate.book.alive(onLaptop!.idHash)).toBe(true);

      await laptop.request('/auth/sign-out-everywhere', {
        method: 'POST',
        headers: { 'x-slabdesk-csrf': onLaptop!.csrf },
      });
      expect(ended).toContainEqual({ ended: 'all-of-user', userName: 'ann' });
      for (const gone of [onLaptop!, onTablet!]) expect(gate.book.alive(gone.idHash)).toBe(false);
      expect(gate.book.alive(onEditor!.idHash)).toBe(true);
    },
  );

  it(
    'on removal or a new password from another process: no longer alive',
    { timeout: SIGN_IN_HEAVY_MS },
    async () => {
      const { gate, db, browser } = await serve();
      const [editor, ann] = [browser(), browser()];
      await editor.signIn('ed', PASSWORD.ed);
      await ann.signIn('ann', PASSWORD.ann);
      const [onEditor, onAnn] = [sessionOf(db, editor), sessionOf(db, ann)];
      // `npm run users -- remove ed` and `passwd ann`: another connection to the file, as the CLI's.
      const cli = new AccountsStore(db);
      expect(cli.removeUser('ed')).toBe(true);
      expect(gate.book.alive(onEditor.idHash)).toBe(false);
      expect(gate.book.alive(onAnn.idHash)).toBe(true);
      expect(cli.setPassword('ann', cli.findUser('ann')!.passwordHash)).toBe(true);
      cli.close();
      expect(gate.book.alive(onAnn.idHash)).toBe(false);
      expect((await ann.request('/auth/session')).body).toContain('"user":null');
    },
  );

  it('on expiry, with no request to notice it', { timeout: SIGN_IN_HEAVY_MS }, async () => {
    const clock = testClock();
    const { gate, db, browser } = await serve({ now: clock.now });
    const ann = browser();
    await ann.signIn('ann', PASSWORD.ann);
    const { idHash } = sessionOf(db, ann);
    expect(gate.book.alive(idHash)).toBe(true);
    clock.advance(13 * 3600_000); // past the idle limit
    expect(gate.book.alive(idHash)).toBe(false);
  });

  it(
    'answers whether a session is alive cheaply enough for every pushed event',
    { timeout: SIGN_IN_HEAVY_MS },
    async () => {
      const { gate, db, browser } = await serve();
      const ann = browser();
      await ann.signIn('ann', PASSWORD.ann);
      const { idHash } = sessionOf(db, ann);
      const started = performance.now();
      for (let i = 0; i < 10_000; i++) gate.book.alive(idHash);
      const each = (performance.now() - started) / 10_000;
      console.log(`sessionAlive: ${(each * 1000).toFixed(1)} µs a call`);
      expect(each).toBeLessThan(0.5);
    },
  );
});
