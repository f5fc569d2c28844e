import type { IncomingMessage } from 'node:http';
import { carriesForwarding } from './request-facts';

/** What says whether another machine can reach the server (see `exposureReasons`). */
export interface ExposureSettings {
  /** The address the server binds. */
  bindHost: string;
  /** `SLABDESK_ALLOWED_HOSTS` and `--host NAME`: names the server answers to, port or not. */
  allowedHosts?: readonly string[] | undefined;
  publicUrl?: string | undefined;
  trustProxy?: boolean | undefined;
  webhookPort?: number | string | undefined;
  requireSignIn?: boolean | undefined;
}

/** A name or address of this machine only (`localhost`, 127.0.0.0/8, ::1). */
export function isLoopbackName(name: string): boolean {
  const host = name
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    /^127(\.\d{1,3}){3}$/.test(host) ||
    host === '::1' ||
    host === '::ffff:127.0.0.1'
  );
}

/** A `Host`-style entry without its port: `name`, `name:port`, `[v6]:port`. */
function hostOnly(entry: string): string {
  const trimmed = entry.trim();
  if (trimmed.startsWith('[')) return trimmed.slice(0, trimmed.indexOf(']') + 1);
  const colons = trimmed.split(':').length - 1;
  return colons === 1 ? trimmed.slice(0, trimmed.indexOf(':')) : trimmed;
}

/** Why the server counts as exposed (empty: it is not). */
export function exposureReasons(settings: ExposureSettings): string[] {
  const reasons: string[] = [];
  if (!isLoopbackName(settings.bindHost)) reasons.push(`bound to ${settings.bindHost}`);
  const names = (settings.allowedHosts ?? []).map(hostOnly).filter(Boolean);
  const outside = names.filter((name) => !isLoopbackName(name));
  if (outside.length > 0) reasons.push(`answers to ${outside.join(', ')}`);
  if (settings.publicUrl) reasons.push('SLABDESK_PUBLIC_URL is set');
  if (settings.trustProxy) reasons.push('SLABDESK_TRUST_PROXY=1');
  if (settings.webhookPort !== undefined && settings.webhookPort !== '') {
    reasons.push('SLABDESK_WEBHOOK_PORT is set');
  }
  if (settings.requireSignIn) reasons.push('SLABDESK_REQUIRE_SIGN_IN=1');
  return reasons;
}

/**
 * Whether a request needs a session: always when exposed; locally, when it carries forwarding
 * headers (a tunnel to a loopback server brings the outside in).
 */
export function signInRequired(exposed: boolean, request: IncomingMessage): boolean {
  return exposed || carriesForwarding(request);
}
