import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startAppServer, type RunningAppServer } from '../../src/server/app-server';
import { distPages } from '../../src/server/dist-pages';
import { Browser, fakeDist, SIGN_IN_HEAVY_MS, usersDb } from './auth-http';

/** Websocket upgrades (Vite's HMR) pass the Host/Origin guard and sign-in as pages do. */
const PASSWORD = 'a long password';
const apps: RunningAppServer[] = [];

/** The status line an upgrade request is answered with ("101" when a handler took it). */
function upgradeStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const ask = request(url, {
      headers: { connection: 'Upgrade', upgrade: 'websocket', ...headers },
    });
    ask.on('upgrade', (answer, socket) => {
      socket.destroy();
      resolve(answer.statusCode ?? 0);
    });
    ask.on('response', (answer) => {
      answer.resume();
      resolve(answer.statusCode ?? 0);
    });
    ask.on('error', reject);
    ask.end();
  });
}

afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

describe('the upgrade guard', () => {
  it(
    'refuses an unknown Host and a missing Origin, needs a session where sign-in is required, and hands the rest on',
    async () => {
      const dist = fakeDist();
      const app = await startAppServer(
        {
          upstream: { baseUrl: 'http://127.0.0.1:9', apiKey: 'svc_live_x' },
          port: 0,
          auth: {
            usersDb: await usersDb([{ name: 'ann', role: 'owner', password: PASSWORD }]),
            requireSignIn: true,
          },
        },
        async (server) => {
          // Stands for Vite's HMR socket: answers every upgrade it is handed with 101.
          server.on('upgrade', (_request, socket) =>
            socket.end(
              'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n',
            ),
          );
          return distPages(dist);
        },
      );
      apps.push(app);
      const host = new URL(app.url).host;
      const own = { host, origin: `http://${host}` };
      expect(await upgradeStatus(app.url, { ...own, host: 'evil.example:80' })).toBe(421);
      expect(await upgradeStatus(app.url, { host })).toBe(403);
      expect(await upgradeStatus(app.url, own)).toBe(401);
      const ann = new Browser(app.url, host);
      expect((await ann.signIn('ann', PASSWORD)).status).toBe(303);
      expect(await upgradeStatus(app.url, { ...own, cookie: ann.cookieHeader() })).toBe(101);
    },
    SIGN_IN_HEAVY_MS,
  );
});
