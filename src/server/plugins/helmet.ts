import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';

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
