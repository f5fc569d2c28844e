import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { API_PREFIX, proxyApiRequest, type ProxyOptions, type Upstream } from './api-proxy';
import { withBootFacts } from './boot-facts';
import { gzipSync } from 'node:zlib';
import { sendBody } from './gzip-reply';
import { streamWalk, WALK_PATH } from './walk-stream';
import { ServerHub, type HubOptions } from './hub/server-hub';
import { openActivityLog, type ActivityLog } from './activity/activity-log';
import { serveActivity } from './activity/activity-routes';
import { startWebhookDoor, type WebhookDoor } from './hub/webhook-door';
import { applyServerLimits } from './server-limits';
import { allowedHostsFor, checkRequest, type GuardVerdict } from './request-guard';
import { AuthGate } from './auth/auth-gate';
import type { AuthOptions } from './auth/auth-options';
import { isAuthWrite } from './auth/sign-in-routes';
import {
  contentSecurityPolicy,
  inlineStyleHashes,
  newNonce,
  setCommonSecurityHeaders,
  setPageHeaders,
} from './security-headers';

/** What serves the page and its assets: Vite in development, the built bundle in production. */
export interface PageSource {
  /** Serves an asset for the path, or returns false to have the page served instead. */
  serveAsset(
    request: IncomingMessage,
    response: ServerResponse,
    pathname: string,
  ): Promise<boolean>;
  /** The page's HTML for a path; `nonce` is set in development. */
  pageHtml(pathname: string, nonce: string | undefined): Promise<string | null>;
  /** Development only: Vite's websocket upgrade handlers are attached here. */
  development: boolean;
}

export interface AppServerOptions {
  upstream: Upstream;
  /** How the API proxy answers (see ProxyOptions). */
  proxy?: ProxyOptions;
  host?: string;
  port?: number;
  strictPort?: boolean;
  /** Extra `Host` names accepted besides the loopback names and the bind address. */
  allowedHosts?: readonly string[];
  /** The webhook receiver's secrets, ledger and sandbox registration (default: none). */
  hub?: HubOptions;
  /** Sign-in: the accounts file and what marks the server exposed (default: none, in memory). */
  auth?: AuthOptions;
  /** Where the activity log (every write through the proxy) is kept; none when unset. */
  activity?: { path: string };
  /** A listener of its own for webhook deliveries only (`SLABDESK_WEBHOOK_PORT`); 0: any port. */
  webhookPort?: number;
  /** The webhook door's bind address (default: `host`). */
  webhookHost?: string;
}

export interface RunningAppServer {
  url: string;
  port: number;
  server: Server;
  /** The key's governor, the webhook receiver and the event stream. */
  hub: ServerHub;
  /** The sign-in gate: whether the server is exposed, and why. */
  auth: Pick<AuthGate, 'exposed' | 'reasons'>;
  /** The activity log, when the options asked for one. */
  activity: ActivityLog | undefined;
  /** The webhook door, when `webhookPort` was given. */
  webhookDoor?: WebhookDoor;
  close(): Promise<void>;
}

/** For a container's or a monitor's health check: open, and tells nothing but that it answers. */
const HEALTH_PATH = '/healthz';

function answerHealth(response: ServerResponse): void {
  response.writeHead(200, {
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
  });
  response.end('ok\n');
}

function refuse(response: ServerResponse, verdict: GuardVerdict): void {
  response.writeHead(verdict.status, {
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
  });
  response.end(`Refused: ${verdict.reason}.\n`);
}

async function listen(
  server: Server,
  host: string,
  port: number,
  strict: boolean,
): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const candidate = port === 0 ? 0 : port + attempt;
    try {
      await new Promise<void>((resolve, reject) => {
        const onError = (error: Error) => reject(error);
        server.once('error', onError);
        server.listen(candidate, host, () => {
          server.off('error', onError);
          resolve();
        });
      });
      const address = server.address();
      return typeof address === 'object' && address ? address.port : candidate;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EADDRINUSE' || strict || port === 0 || attempt >= 20) throw error;
    }
  }
}

/**
 * The dashboard's server: page, assets and API proxy behind the request guard. `createPageSource`
 * gets the http server before it listens, so Vite can attach its HMR websocket.
 */
export async function startAppServer(
  options: AppServerOptions,
  createPageSource: (server: Server) => Promise<PageSource>,
): Promise<RunningAppServer> {
  const host = options.host ?? '127.0.0.1';
  // First of all: an exposed server without an account refuses to start (NoAccountError).
  const auth = new AuthGate(options.auth, { bindHost: host, allowedHosts: options.allowedHosts });
  let allowedHosts = new Set<string>();
  const hub = new ServerHub(options.upstream.apiKey, options.hub);
  // The key's pages read ahead live beside its governor, unless the options turn them off (null).
  const activity = options.activity ? openActivityLog(options.activity.path) : undefined;
  const proxy: ProxyOptions = {
    ...options.proxy,
    readAhead: options.proxy?.readAhead === undefined ? hub.readAhead : options.proxy.readAhead,
    onAnswered: options.proxy?.onAnswered ?? activity?.recorder.observe,
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      console.error(error);
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end('Internal error.\n');
    });
  });

  applyServerLimits(server);

  /** The last page sent gzipped, packed. */
  let packedPage: { html: string; body: Buffer } | undefined;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    setCommonSecurityHeaders(response);
    const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
    const api = pathname.startsWith(API_PREFIX) || pathname === '/api';
    const hubPath = pathname.startsWith('/hub/');
    const asApi = api || hubPath || isAuthWrite(pathname, request.method);
    const verdict = checkRequest(request, allowedHosts, asApi ? 'api' : 'page');
    if (!verdict.ok) return refuse(response, verdict);
    // Sign-in routes, sessions, CSRF and roles (see auth/auth-gate): null when it answered.
    const access = await auth.admit(request, response, pathname);
    if (!access) return;
    if (pathname === HEALTH_PATH) return answerHealth(response);
    if (api) {
      const { actor } = access;
      return proxyApiRequest(request, response, options.upstream, hub.governor, {
        ...proxy,
        actor,
      });
    }
    if (pathname === WALK_PATH) {
      return streamWalk(request, response, options.upstream, hub.governor, {
        ...proxy,
        actor: access.actor,
      });
    }
    if (hubPath && serveActivity(request, response, pathname, activity?.store)) return;
    if (hubPath && (await hub.handle(request, response, pathname))) return;
    // The build's files are open; Vite's (the source tree, in development) need the session.
    if (!access.pageAllowed && pages.development) return auth.toSignIn(request, response);
    if (await pages.serveAsset(request, response, pathname)) return;
    if (response.writableEnded) return;
    if (!access.pageAllowed) return auth.toSignIn(request, response);
    const nonce = pages.development ? newNonce() : undefined;
    const page = await pages.pageHtml(pathname, nonce);
    if (page === null) {
      response.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('The dashboard is not built: run `npm run build` first.\n');
      return;
    }
    const html = withBootFacts(page, options.upstream, access.session);
    // The inline styles are the bundle's (in `page`), not the boot facts added to it.
    const styleHashes = inlineStyleHashes(page);
    // The embedded sandbox draws the demo's slab pictures at its own address (only that one).
    const embedded = options.hub?.registerWith;
    const imageOrigins = embedded ? [new URL(embedded.sandboxUrl).origin] : [];
    setPageHeaders(
      response,
      contentSecurityPolicy({ nonce, host: request.headers.host, styleHashes, imageOrigins }),
    );
    // Packed like the bundle's files, once per page text (the same for every visit in production).
    const body = Buffer.from(html);
    if (packedPage?.html !== html) packedPage = { html, body: gzipSync(body) };
    const type = { 'content-type': 'text/html; charset=utf-8' };
    sendBody(request, response, 200, type, body, packedPage.body);
  }

  // Requests arrive only after listen(), so `pages` is set before `handle` reads it.
  const pages = await createPageSource(server);

  // Websocket upgrades (Vite's HMR) pass the same guard before reaching their handlers.
  const upgradeHandlers = server.listeners('upgrade') as ((
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
  ) => void)[];
  server.removeAllListeners('upgrade');
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const verdict = checkRequest(request, allowedHosts, 'websocket');
    const status = !verdict.ok ? verdict.status : !auth.allowsUpgrade(request) ? 401 : 404;
    if (!verdict.ok || status === 401 || upgradeHandlers.length === 0) {
      socket.end(`HTTP/1.1 ${status} Refused\r\n\r\n`);
      return;
    }
    for (const handler of upgradeHandlers) handler.call(server, request, socket, head);
  });

  const port = await listen(server, host, options.port ?? 5173, options.strictPort ?? false);
  allowedHosts = allowedHostsFor(host, port, options.allowedHosts);
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const url = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`;
  let webhookDoor: WebhookDoor | undefined;
  if (options.webhookPort !== undefined) {
    try {
      webhookDoor = await startWebhookDoor(hub, {
        host: options.webhookHost ?? host,
        port: options.webhookPort,
      });
    } catch (error) {
      hub.close();
      server.close();
      throw error;
    }
  }
  try {
    await hub.started(webhookDoor?.url ?? url);
  } catch (error) {
    console.warn(`Webhooks: could not register with the sandbox (${String(error)}); polling.`);
  }
  return {
    url,
    port,
    server,
    hub,
    auth,
    activity,
    ...(webhookDoor ? { webhookDoor } : {}),
    close: async () => {
      await webhookDoor?.close();
      await new Promise<void>((resolve) => {
        hub.close();
        auth.close();
        activity?.close();
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}
