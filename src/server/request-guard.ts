import { networkInterfaces } from 'node:os';
import type { IncomingMessage } from 'node:http';

// Keeps the key to its own page: only our own `Host` names (no DNS rebinding), and API calls or
// upgrades only from our own origin (no other site through the seller's browser).
type GuardVerdict = { ok: boolean; status: number; reason: string };

const OK: GuardVerdict = { ok: true, status: 200, reason: '' };
const refuse = (status: number, reason: string): GuardVerdict => ({ ok: false, status, reason });

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
  const names = new Set<string>(LOOPBACK_NAMES);
  if (bindHost === '0.0.0.0' || bindHost === '::') {
    for (const list of Object.values(networkInterfaces())) {
      for (const entry of list ?? []) names.add(wrapIpv6(entry.address));
    }
  } else {
    names.add(wrapIpv6(bindHost));
  }
  const hosts = new Set<string>();
  for (const name of names) hosts.add(`${name.toLowerCase()}:${port}`);
  for (const entry of extraHosts) for (const host of hostsOfEntry(entry, port)) hosts.add(host);
  return hosts;
}

const header = (request: IncomingMessage, name: string) => [request.headers[name]].flat()[0];

export type RequestKind = 'api' | 'page' | 'websocket';

/** Whether the server may answer `request`; `kind` says what it asks for. */
export function checkRequest(
  request: IncomingMessage,
  allowedHosts: ReadonlySet<string>,
  kind: RequestKind,
): GuardVerdict {
  const host = header(request, 'host')?.toLowerCase();
  if (!host || !allowedHosts.has(host)) return refuse(421, 'unknown Host');

  const origin = header(request, 'origin');
  const site = header(request, 'sec-fetch-site');
  const mode = header(request, 'sec-fetch-mode');
  const method = request.method ?? 'GET';
  const ownOrigins = new Set([`http://${host}`, `https://${host}`]);

  if (kind === 'page') {
    if (method !== 'GET' && method !== 'HEAD') return refuse(405, 'pages are read-only');
    // A link from another site may open the dashboard; nothing else from another site may.
    const crossSite = site === 'cross-site' || site === 'same-site';
    if (crossSite && mode !== 'navigate') return refuse(403, 'cross-site request');
    if (origin !== undefined && !ownOrigins.has(origin) && mode !== 'navigate') {
      return refuse(403, 'cross-site Origin');
    }
    return OK;
  }

  // API calls and websocket upgrades come only from the dashboard's own page.
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    return refuse(403, 'cross-site request');
  }
  if (origin !== undefined && !ownOrigins.has(origin)) return refuse(403, 'cross-site Origin');
  if (kind === 'websocket' && origin === undefined) return refuse(403, 'missing Origin');
  return OK;
}
