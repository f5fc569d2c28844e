import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { applyServerLimits } from '../server-limits';
import { reportBackgroundError } from './event-hub';
import type { ServerHub } from './server-hub';
import { WEBHOOK_PATH } from './webhook-receiver';

/** Sockets the door holds at once: the API delivers a few at a time. */
const MAX_CONNECTIONS = 256;

export interface WebhookDoor {
  /** The door's own address, e.g. `http://127.0.0.1:8788`. */
  url: string;
  port: number;
  server: Server;
  close(): Promise<void>;
}

function plain(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  response.end(text);
}

/**
 * A listener of its own (`SLABDESK_WEBHOOK_PORT`) for deliveries and `/healthz` only, so a tunnel
 * can expose it alone. No Host check: the signature authenticates; short socket timeouts.
 */
export async function startWebhookDoor(
  hub: ServerHub,
  options: { host: string; port: number },
): Promise<WebhookDoor> {
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const pathname = (request.url ?? '/').split('?')[0];
    let done: Promise<void>;
    if (pathname === WEBHOOK_PATH) {
      done = hub.receive(request, response);
    } else if (pathname === '/healthz' && (request.method === 'GET' || request.method === 'HEAD')) {
      plain(response, 200, 'ok\n');
      return;
    } else {
      plain(response, 404, 'Not found: this door takes webhook deliveries only.\n');
      return;
    }
    done.catch((error: unknown) => {
      reportBackgroundError('a webhook delivery on the door', error);
      if (!response.headersSent) plain(response, 500, 'Internal error.\n');
      else response.end();
    });
  });
  applyServerLimits(server, { headersMs: 10_000, requestMs: 15_000, idleSocketMs: 30_000 });
  server.maxConnections = MAX_CONNECTIONS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const shown = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
  return {
    url: `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`,
    port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
