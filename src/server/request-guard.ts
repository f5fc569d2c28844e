import { networkInterfaces } from 'node:os';
import type { IncomingMessage } from 'node:http';

/**
 * The rules that keep the proxy's key to its own page. The server answers only requests whose
 * `Host` is one of its own names (a DNS-rebinding page cannot borrow it), and API calls or
 * websocket upgrades only from its own origin (another site the seller has open cannot use the
 * key through the seller's browser).
 */
export interface GuardVerdict {
  ok: boolean;
  status: number;
  reason: string;
}

const OK: GuardVerdict = { ok: true, status: 200, reason: '' };
const refuse = (status: number, reason: string): GuardVerdict => ({ ok: false, status, reason });

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

function wrapIpv6(address: string): string {
  return address.includes(':') && !address.startsWith('[') ? `[${address}]` : address;
}

/**
 * Every `host:port` the server accepts in `Host`: the loopback names, the bind address, each
 * interface address when bound to every interface, and any names in `extraHosts`.
 */
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
  for (const name of extraHosts) if (name.trim()) names.add(name.trim().toLowerCase());
  const hosts = new Set<string>();
  for (const name of names) hosts.add(`${name.toLowerCase()}:${port}`);
  return hosts;
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export type RequestKind = 'api' | 'page' | 'websocket';

/** Decides whether the server may answer `request`; `kind` says what it asks for. */
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
