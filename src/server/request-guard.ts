import type { IncomingMessage, Server } from 'node:http';
import { networkInterfaces } from 'node:os';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthGate } from './auth/auth-gate';
import { accessOf, isWrite } from './auth/roles';
import { refuse as refuseReply } from './error-envelope';
import { safeDecode } from '../shared/safe-decode';
import { headerOf as header, pathnameOf } from './request-url';

/** Why a request is refused (its envelope's code and words); null: it may go on. */
type Refusal = { status: number; code: string; reason: string } | null;
const refuse = (status: number, code: string, reason: string): Refusal => ({
  status,
  code,
  reason,
});

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

const wrapIpv6 = (address: string) =>
  address.includes(':') && !address.startsWith('[') ? `[${address}]` : address;

/** An allowed-hosts entry's `Host` values: as given, or bare, with our port or a default one. */
function hostsOfEntry(entry: string, port: number): string[] {
  const name = entry.trim().toLowerCase();
  if (!name) return [];
  const bracketed = /^(\[[^\]]+\])(?::(\d{1,5}))?$/.exec(name);
  const named = /^([^:]+):(\d{1,5})$/.exec(name);
  const withPort = bracketed?.[2] !== undefined ? bracketed : named;
  if (withPort) return [`${withPort[1]}:${withPort[2]}`];
  const bare = bracketed ? bracketed[1]! : wrapIpv6(name);
  return [bare, `${bare}:${port}`, `${bare}:80`, `${bare}:443`];
}

/** Every `Host` accepted: loopback, the bind address (each interface for all), `extraHosts`. */
export function allowedHostsFor(
  bindHost: string,
  port: number,
  extraHosts: readonly string[] = [],
): Set<string> {
  const bound =
    bindHost === '0.0.0.0' || bindHost === '::'
      ? Object.values(networkInterfaces()).flatMap((list = []) => list.map((one) => one.address))
      : [bindHost];
  const ours = [...LOOPBACK_NAMES, ...bound.map(wrapIpv6)].map(
    (name) => `${name.toLowerCase()}:${port}`,
  );
  return new Set([...ours, ...extraHosts.flatMap((entry) => hostsOfEntry(entry, port))]);
}

type RequestKind = 'api' | 'page' | 'websocket';

/** Only our own `Host` names (no DNS rebinding); API calls and upgrades only from our own origin. */
function checkRequest(
  request: IncomingMessage,
  allowedHosts: ReadonlySet<string>,
  kind: RequestKind,
): Refusal {
  const host = header(request, 'host')?.toLowerCase();
  if (!host || !allowedHosts.has(host)) return refuse(421, 'unknown_host', 'unknown Host');

  const origin = header(request, 'origin');
  const site = header(request, 'sec-fetch-site');
  const mode = header(request, 'sec-fetch-mode');
  const ownOrigins = new Set([`http://${host}`, `https://${host}`]);

  if (kind === 'page') {
    if (isWrite(request.method ?? 'GET'))
      return refuse(405, 'method_not_allowed', 'pages are read-only');
    // A link from another site may open the dashboard; nothing else from another site may.
    const crossSite = site === 'cross-site' || site === 'same-site';
    if (crossSite && mode !== 'navigate') return refuse(403, 'cross_site', 'cross-site request');
    if (origin !== undefined && !ownOrigins.has(origin) && mode !== 'navigate') {
      return refuse(403, 'cross_site', 'cross-site Origin');
    }
    return null;
  }

  // API calls and websocket upgrades come only from the dashboard's own page.
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    return refuse(403, 'cross_site', 'cross-site request');
  }
  if (origin !== undefined && !ownOrigins.has(origin))
    return refuse(403, 'cross_site', 'cross-site Origin');
  if (kind === 'websocket' && origin === undefined)
    return refuse(403, 'cross_site', 'missing Origin');
  return null;
}

/** No empty segment but a trailing one, no `.`/`..` however spelled, no backslash, all decode. */
export function isCanonicalPath(pathname: string): boolean {
  if (!pathname.startsWith('/') || pathname.includes('\\')) return false;
  const segments = pathname.split('/').slice(1);
  return segments.every((segment, index) => {
    const decoded = safeDecode(segment);
    if (decoded === null || decoded === '.' || decoded === '..') return false;
    return segment !== '' || index === segments.length - 1;
  });
}

/** The answer to a request whose address is not well formed. */
export const refuseMalformed = (reply: FastifyReply): FastifyReply =>
  refuseReply(
    reply.header('x-content-type-options', 'nosniff'),
    400,
    'malformed_request',
    'That address is not well formed.',
  );

/** A page or a public route's read may be opened from a link; any other call is our page's. */
function kindOf(request: FastifyRequest): RequestKind {
  const access = accessOf(request);
  return access === 'page' || (access === 'public' && !isWrite(request.method)) ? 'page' : 'api';
}

/** Canonical paths (the router, a file server and a proxy read one path alike), then checkRequest; `hosts` per request (the port is known only after listening). */
export function requestGuard(app: FastifyInstance, hosts: () => ReadonlySet<string>): void {
  app.addHook('onRequest', async (request, reply) => {
    if (!isCanonicalPath(pathnameOf(request))) return refuseMalformed(reply);
    const refusal = checkRequest(request.raw, hosts(), kindOf(request));
    if (!refusal) return;
    // In the API's envelope, as every refusal of the server's own.
    return refuseReply(reply, refusal.status, refusal.code, `Refused: ${refusal.reason}.`);
  });
}

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
    const status =
      checkRequest(request, hosts(), 'websocket')?.status ??
      (gate.allowsUpgrade(request) ? (handlers.length > 0 ? 0 : 404) : 401);
    if (status) return void socket.end(`HTTP/1.1 ${status} Refused\r\n\r\n`);
    for (const handler of handlers) handler.call(server, request, socket, head);
  });
}
