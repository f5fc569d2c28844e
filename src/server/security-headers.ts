import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';

/** The page's CSP; development adds Vite's HMR websocket and a per-request nonce. */
export function contentSecurityPolicy(options: {
  nonce?: string;
  host?: string;
  styleHashes?: readonly string[];
  imageOrigins?: readonly string[];
}): string {
  const nonce = options.nonce ? ` 'nonce-${options.nonce}'` : '';
  const hashes = (options.styleHashes ?? []).map((hash) => ` '${hash}'`).join('');
  const images = (options.imageOrigins ?? []).map((origin) => ` ${origin}`).join('');
  const websocket = options.nonce && options.host ? ` ws://${options.host}` : '';
  return [
    "default-src 'none'",
    // The barcode reader's polyfill compiles its own WebAssembly (served from 'self').
    `script-src 'self' 'wasm-unsafe-eval'${nonce}`,
    `style-src 'self'${nonce}${hashes}`,
    `img-src 'self' https: data:${images}`,
    `connect-src 'self'${websocket}`,
    "font-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}

export const newNonce = () => randomBytes(16).toString('base64');

const INLINE_STYLE = /<style>([\s\S]*?)<\/style>/g;
const hashesByPage = new Map<string, string[]>();

/** CSP hashes of the page's inline `<style>` elements, remembered per page text. */
export function inlineStyleHashes(html: string): string[] {
  let hashes = hashesByPage.get(html);
  if (!hashes) {
    hashes = [...html.matchAll(INLINE_STYLE)].map(
      (match) => `sha256-${createHash('sha256').update(match[1]!).digest('base64')}`,
    );
    if (hashesByPage.size > 32) hashesByPage.clear();
    hashesByPage.set(html, hashes);
  }
  return hashes;
}

/** The security headers of every answer: helmet's, HSTS when the public address is https. */
export async function securityHeaders(app: FastifyInstance, publicUrl: string | undefined) {
  await app.register(helmet, {
    global: true,
    // The page sets its own policy (a nonce and the hashes of its inline styles, per page).
    contentSecurityPolicy: false,
    // Not `no-referrer`: under it Chromium sends `Origin: null` on the page's own form posts,
    // which the request guard refuses as cross-site. Other sites still get nothing.
    referrerPolicy: { policy: 'same-origin' },
    frameguard: { action: 'deny' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    strictTransportSecurity: publicUrl?.startsWith('https:')
      ? { maxAge: 31_536_000, includeSubDomains: false }
      : false,
  });
}
