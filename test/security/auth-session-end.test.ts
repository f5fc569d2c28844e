import { createServer, request as httpRequest, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { AccountsStore } from '../../src/server/auth/accounts-store';
import { AuthGate } from '../../src/server/auth/auth-gate';
import type { EndedSessions } from '../../src/server/auth/session-book';
import { admitAsServer, Browser, SIGN_IN_HEAVY_MS, testClock, usersDb } from './auth-http';

/**
 * The finding "sign out everywhere and `npm run users -- remove` end the sessions, but an event
 * stream opened before keeps delivering". The event stream is the hub's; the gate's part is to
 * tell the moment a session ends, however it ends: sign-out, sign out everywhere, removal or a
 * new password by `npm run users` (another process, so the gate re-checks watched sessions), and
 * expiry. Here a stand-in stream is served as the hub would, through the gate as the server
 * calls it, and closed when told.
 */
const PASSWORD = { ann: 'a long password', ed: 'editor password 1' };
const CHECK_MS = 200;
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
    { usersDb: db, requireSignIn: true, sessionCheckMs: CHECK_MS, ...options },
    { bindHost: '127.0.0.1' },
  );
  const ended: { ended: EndedSessions; userName: string }[] = [];
  gate.onSessionsEnded((which, userName) => ended.push({ ended: which, userName }));
  const server: Server = createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
    void admitAsServer(gate, request, response).then((admission) => {
      if (!admission) return;
      if (pathname !== '/hub/stand-in-stream' || !admission.session) {
        response.writeHead(404).end();
        return;
      }
      // As the hub's event stream would: open until the session ends.
      const { idHash, name } = admission.session;
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(`data: ${idHash}\n\n`);
      const stop = gate.watchSession(idHash, name, () => response.end('event: ended\n\n'));
      response.on('close', stop);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    gate.close();
  });
  const browser = () => new Browser(url, `127.0.0.1:${port}`);
  return { gate, db, ended, browser, port };
}

/** Opens the stand-in stream with the browser's cookies: its session's id hash, and when it ends. */
function openStream(port: number, browser: Browser) {
  return new Promise<{ idHash: string; closed: Promise<number> }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: '/hub/stand-in-stream',
        headers: { cookie: browser.cookieHeader(), host: `127.0.0.1:${port}` },
      },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`stream: ${res.statusCode}`));
        const closed = new Promise<number>((done) => res.on('end', () => done(performance.now())));
        res.once('data', (chunk: Buffer) => {
          resolve({ idHash: /data: (\w+)/.exec(chunk.toString())![1]!, closed });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const within = <T>(promise: Promise<T>, ms: number, what: string) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`${what}: still open`)), ms),
    ),
  ]);

describe('the end of a session is told at once', () => {
  it(
    'on sign-out and on sign out everywhere: the streams of those sessions close, others stay',
    { timeout: SIGN_IN_HEAVY_MS },
    async () => {
      const { gate, db, ended, browser, port } = await serve();
      // The session's token, as the page would be given it.
      const csrfOf = (idHash: string) => {
        const store = new AccountsStore(db);
        const token = store.findSession(idHash)!.csrfToken;
        store.close();
        return token;
      };
      const [phone, laptop, tablet, editor] = [browser(), browser(), browser(), browser()];
      for (const device of [phone, laptop, tablet]) await device.signIn('ann', PASSWORD.ann);
      await editor.signIn('ed', PASSWORD.ed);
      const streams = await Promise.all(
        [phone, laptop, tablet, editor].map((b) => openStream(port, b)),
      );
      const [onPhone, onLaptop, onTablet, onEditor] = streams;

      let asked = performance.now();
      await phone.request('/auth/sign-out', {
        method: 'POST',
        headers: { 'x-slabdesk-csrf': csrfOf(onPhone!.idHash) },
      });
      expect((await within(onPhone!.closed, 1000, 'phone')) - asked).toBeLessThan(CHECK_MS);
      expect(ended).toContainEqual({ ended: [onPhone!.idHash], userName: 'ann' });
      expect(gate.sessionAlive(onPhone!.idHash)).toBe(false);
      expect(gate.sessionAlive(onLaptop!.idHash)).toBe(true);

      asked = performance.now();
      await laptop.request('/auth/sign-out-everywhere', {
        method: 'POST',
        headers: { 'x-slabdesk-csrf': csrfOf(onLaptop!.idHash) },
      });
      for (const stream of [onLaptop!, onTablet!]) {
        expect((await within(stream.closed, 1000, 'ann elsewhere')) - asked).toBeLessThan(CHECK_MS);
      }
      expect(ended).toContainEqual({ ended: 'all-of-user', userName: 'ann' });
      expect(gate.sessionAlive(onEditor!.idHash)).toBe(true);
      const stillOpen = await Promise.race([
        onEditor!.closed.then(() => 'closed'),
        new Promise((resolve) => setTimeout(() => resolve('open'), 3 * CHECK_MS)),
      ]);
      expect(stillOpen).toBe('open');
    },
  );

  it(
    'on removal or a new password from another process, within the check interval',
    { timeout: SIGN_IN_HEAVY_MS },
    async () => {
      const { gate, db, ended, browser, port } = await serve();
      const [editor, ann] = [browser(), browser()];
      await editor.signIn('ed', PASSWORD.ed);
      await ann.signIn('ann', PASSWORD.ann);
      const [onEditor, onAnn] = [await openStream(port, editor), await openStream(port, ann)];

      // `npm run users -- remove ed` and `passwd ann`: another connection to the file, as the CLI's.
      const cli = new AccountsStore(db);
      const asked = performance.now();
      expect(cli.removeUser('ed')).toBe(true);
      expect(gate.sessionAlive(onEditor.idHash)).toBe(false);
      expect(cli.setPassword('ann', cli.findUser('ann')!.passwordHash)).toBe(true);
      cli.close();
      for (const stream of [onEditor, onAnn]) {
        expect((await within(stream.closed, 3000, 'after the CLI')) - asked).toBeLessThan(
          3 * CHECK_MS,
        );
      }
      expect(ended).toContainEqual({ ended: [onEditor.idHash], userName: 'ed' });
      expect(ended).toContainEqual({ ended: [onAnn.idHash], userName: 'ann' });
    },
  );

  it('on expiry, with no request to notice it', { timeout: SIGN_IN_HEAVY_MS }, async () => {
    const clock = testClock();
    const { gate, ended, browser, port } = await serve({ now: clock.now });
    const ann = browser();
    await ann.signIn('ann', PASSWORD.ann);
    const stream = await openStream(port, ann);
    clock.advance(13 * 3600_000); // past the idle limit
    expect(gate.sessionAlive(stream.idHash)).toBe(false);
    await within(stream.closed, 3000, 'expired');
    expect(ended).toContainEqual({ ended: [stream.idHash], userName: 'ann' });
  });

  it(
    'answers whether a session is alive cheaply enough for every pushed event',
    { timeout: SIGN_IN_HEAVY_MS },
    async () => {
      const { gate, browser, port } = await serve();
      const ann = browser();
      await ann.signIn('ann', PASSWORD.ann);
      const { idHash } = await openStream(port, ann);
      const started = performance.now();
      for (let i = 0; i < 10_000; i++) gate.sessionAlive(idHash);
      const each = (performance.now() - started) / 10_000;
      console.log(`sessionAlive: ${(each * 1000).toFixed(1)} µs a call`);
      expect(each).toBeLessThan(0.5);
    },
  );
});
