import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AuthGate } from '../auth/auth-gate';
import { checkRequest } from '../request-guard';

type UpgradeHandler = (request: IncomingMessage, socket: Duplex, head: Buffer) => void;

/** Websocket upgrades (Vite's HMR) pass the guard and sign-in as pages do; none without a handler. */
export function guardUpgrades(
  server: Server,
  hosts: () => ReadonlySet<string>,
  gate: Pick<AuthGate, 'allowsUpgrade'>,
): void {
  const handlers = server.listeners('upgrade') as UpgradeHandler[];
  server.removeAllListeners('upgrade');
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const verdict = checkRequest(request, hosts(), 'websocket');
    const status = !verdict.ok ? verdict.status : !gate.allowsUpgrade(request) ? 401 : 404;
    if (!verdict.ok || status === 401 || handlers.length === 0) {
      socket.end(`HTTP/1.1 ${status} Refused\r\n\r\n`);
      return;
    }
    for (const handler of handlers) handler.call(server, request, socket, head);
  });
}
