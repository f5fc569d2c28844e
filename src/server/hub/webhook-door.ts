import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { listenOn } from '../listen';
import { reportBackgroundError } from './background-error';
import { addressKey, Slots } from './slots';
import type { ServerHub } from './server-hub';
import { WEBHOOK_PATH } from './webhook-receiver';

/** Sockets the door holds at once, in all and per address: the API delivers a few at a time. */
export const DOOR_CONNECTION_LIMITS = { total: 256, perKey: 16 };
/** A request's headers, then the whole of it, must arrive within these; an idle socket goes. */
const DOOR_TIMES = {
  headersTimeout: 5_000,
  requestTimeout: 10_000,
  keepAliveTimeout: 2_000,
  /** How often Node looks for requests past those times (its default is far slower). */
  connectionsCheckingInterval: 1_000,
};
const IDLE_SOCKET_MS = 5_000;

function plain(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  response.end(text);
}

// A listener of its own (`SLABDESK_WEBHOOK_PORT`) for deliveries and `/healthz` only, for a tunnel
// to expose alone; no Host check (the signature authenticates), short times, slots per address.
export async function startWebhookDoor(hub: ServerHub, options: { host: string; port: number }) {
  const connections = new Slots<Socket>(DOOR_CONNECTION_LIMITS, (socket) => socket.destroy());
  const handler = (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    // Whole once its body is read: from then until answered, the connection is not dropped.
    request.once('end', () => connections.setBusy(socket, true));
    response.once('close', () => connections.setBusy(socket, false));
    const pathname = (request.url ?? '/').split('?')[0];
    if (pathname === WEBHOOK_PATH) {
      hub.receive(request, response).catch((error: unknown) => {
        reportBackgroundError('a webhook delivery on the door', error);
        if (!response.headersSent) plain(response, 500, 'Internal error.\n');
        else response.end();
      });
    } else if (pathname === '/healthz' && (request.method === 'GET' || request.method === 'HEAD')) {
      plain(response, 200, 'ok\n');
    } else plain(response, 404, 'Not found: this door takes webhook deliveries only.\n');
  };
  const server = createServer(DOOR_TIMES, handler);
  server.timeout = IDLE_SOCKET_MS;
  server.on('connection', (socket: Socket) => {
    if (!connections.take(socket, addressKey(socket.remoteAddress))) socket.destroy();
    else socket.once('close', () => connections.release(socket));
  });
  return {
    ...(await listenOn(server, options.host, options.port, true)),
    server,
    connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The door's address, server and connections (per address), and its close. */
export type WebhookDoor = Awaited<ReturnType<typeof startWebhookDoor>>;
