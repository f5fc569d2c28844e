import { vi } from 'vitest';
import { createHmac } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { AccountsStore } from '../../src/server/auth/accounts-store';
import { AuthGate } from '../../src/server/auth/auth-gate';
import { sessionCookieName } from '../../src/server/auth/auth-gate';
import { hashSessionId } from '../../src/server/auth/accounts-store';
import { ServerHub } from '../../src/server/hub/server-hub';
import { hubRoutes } from '../../src/server/routes/hub';
import type { SessionLiveness } from '../../src/server/hub/server-hub';
import { gateServer, type Browser } from './auth-http';

/**
 * The hub behind a real sign-in gate, wired as the app server is to wire it: the gate admits, the
 * hub serves with the admitted session's id, and learns of ended sessions from the accounts store
 * that `npm run users` and sign-out write to.
 */
export const HUB_SECRET = 'svc_whsec_TheSessionSuitesSigningSecret0001';

export interface SessionHubServer {
  url: string;
  hub: ServerHub;
  /** Another handle on the users file, as `npm run users -- remove` opens it. */
  users: AccountsStore;
  close(): Promise<void>;
}

/** Session liveness read from the accounts store: the row must exist and be within its times. */
export function storeLiveness(
  store: AccountsStore,
  times: { idleMinutes: number; maxHours: number; now: () => number },
): SessionLiveness {
  return {
    alive(idHash) {
      const row = store.findSession(idHash);
      if (!row) return false;
      const now = times.now();
      return (
        now - row.lastSeenAt <= times.idleMinutes * 60_000 &&
        now - row.createdAt <= times.maxHours * 3_600_000
      );
    },
  };
}

export async function startSessionHubServer(options: {
  usersDb: string;
  now: () => number;
  liveness?: (users: AccountsStore) => SessionLiveness;
}): Promise<SessionHubServer> {
  const times = { idleMinutes: 60, maxHours: 24, now: options.now };
  const auth = new AuthGate(
    {
      usersDb: options.usersDb,
      requireSignIn: true,
      now: options.now,
      sessionIdleMinutes: times.idleMinutes,
      sessionMaxHours: times.maxHours,
    },
    { bindHost: '127.0.0.1' },
  );
  const users = new AccountsStore(options.usersDb);
  const hub = new ServerHub('svc_live_unused', {
    secrets: [HUB_SECRET],
    sessions: options.liveness?.(users) ?? storeLiveness(users, times),
  });
  const server = await gateServer(auth, async (app) => {
    await app.register(hubRoutes, { hub });
    // The page, with the session's CSRF token as the dashboard's page carries it.
    app.setNotFoundHandler((request, reply) =>
      reply
        .type('text/html; charset=utf-8')
        .send(
          `<!doctype html><meta name="slabdesk-csrf" content="${request.admission.session?.csrfToken ?? ''}">`,
        ),
    );
  });
  return {
    url: server.url,
    hub,
    users,
    async close() {
      await server.close();
      hub.close();
      auth.close();
      users.close();
    },
  };
}

/** The session id's hash (as the gate and the hub name it) of a signed-in browser. */
export function sessionIdOf(browser: Browser): string {
  const id = browser.cookies.get(sessionCookieName(false));
  if (!id) throw new Error('the browser is not signed in');
  return hashSessionId(id);
}

/** One tab's event stream, read as text; `ended` settles when the server closes it. */
export interface OpenStream {
  status: number;
  text(): string;
  isEnded(): boolean;
  ended: Promise<void>;
  close(): void;
}

export function openStream(url: string, cookie: string): Promise<OpenStream> {
  const target = new URL('/hub/events', url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        agent: false,
        headers: { accept: 'text/event-stream', cookie },
      },
      (res) => {
        let text = '';
        let done = false;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        const ended = new Promise<void>((settle) => {
          const finish = () => {
            done = true;
            settle();
          };
          res.on('end', finish);
          res.on('close', finish);
          res.on('error', finish);
        });
        resolve({
          status: res.statusCode ?? 0,
          text: () => text,
          isEnded: () => done,
          ended,
          close: () => req.destroy(),
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** A signed delivery posted to the hub; resolves to its status. */
export async function deliver(url: string, id: string, body: string): Promise<number> {
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac('sha256', HUB_SECRET).update(`${t}.${body}`).digest('hex');
  const answer = await fetch(`${url}/hub/webhooks`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-service-webhook-id': id,
      'x-service-webhook-topic': 'orders/create',
      'x-service-webhook-signature': `t=${t},v1=${v1}`,
    },
    body,
  });
  await answer.arrayBuffer();
  return answer.status;
}

/** Waits until `predicate` holds; throws with `what` after `timeoutMs`. */
export async function until(predicate: () => boolean, what: string, timeoutMs = 5_000) {
  await vi.waitFor(
    () => {
      if (!predicate()) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    },
    { timeout: timeoutMs, interval: 20 },
  );
}
