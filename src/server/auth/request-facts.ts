import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

/** What the sign-in part reads of a request's transport, given whether a proxy is trusted. */
export interface TransportSettings {
  /** `SLABDESK_PUBLIC_URL`: an `https` one means the browser reaches us over TLS. */
  publicUrl?: string | undefined;
  /** `SLABDESK_TRUST_PROXY=1`: believe `X-Forwarded-For` and `X-Forwarded-Proto`. */
  trustProxy?: boolean | undefined;
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/**
 * The client's address: the socket's, or behind a trusted proxy the first `X-Forwarded-For` hop
 * from the right that is not local (entries further left are the client's words).
 */
export function clientAddress(request: IncomingMessage, settings: TransportSettings): string {
  const socket = request.socket.remoteAddress ?? 'unknown';
  if (!settings.trustProxy) return socket;
  const hops = (header(request, 'x-forwarded-for') ?? '')
    .split(',')
    .map((hop) => hop.trim())
    .filter((hop) => isIP(hop) !== 0);
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!LOOPBACK.test(hops[i]!)) return hops[i]!;
  }
  return hops[0] ?? socket;
}

/** Whether the browser reached us over TLS (cookies are then Secure, under a `__Host-` name). */
export function overTls(request: IncomingMessage, settings: TransportSettings): boolean {
  if (settings.publicUrl?.toLowerCase().startsWith('https:')) return true;
  if ('encrypted' in request.socket && request.socket.encrypted === true) return true;
  if (!settings.trustProxy) return false;
  const proto = header(request, 'x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  return proto === 'https';
}

/** Headers a reverse proxy or tunnel adds: a request carrying one came from outside. */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip', 'cf-connecting-ip'];

export function carriesForwarding(request: IncomingMessage): boolean {
  return FORWARDING_HEADERS.some((name) => request.headers[name] !== undefined);
}
