import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Upstream } from '../api-proxy';
import type { AuthGate } from '../auth/auth-gate';
import { escapeHtml } from '../auth/sign-in-page';
import { pathnameOf } from '../request-url';
import { contentSecurityPolicy, inlineStyleHashes, newNonce } from '../security-headers';

/** What serves the page and its assets: Vite in development, the built bundle in production. */
export interface PageSource {
  /** Development: Vite's files need a session where pages do (they are the source tree). */
  development: boolean;
  /** Adds what serves the assets; a path it does not serve falls through to the page. */
  register(app: FastifyInstance): Promise<void>;
  /** The page's HTML for a path, or null when there is none (not built); `nonce` in development. */
  pageHtml(pathname: string, nonce: string | undefined): Promise<string | null>;
  close?(): Promise<void>;
}

/** The signed-in person as the page is told (absent: sign-in is off, the page acts as owner). */
type SignedIn = { name: string; role: string; csrfToken: string; idHash?: string };

/** Facts in the page, so its first paint knows them: key mode, days kept, who, the CSRF token. */
function withBootFacts(html: string, apiKey: string, signedIn: SignedIn | null, days?: number) {
  // The outbox's "made by": a one-way tag of the stored hash, itself one-way; it opens nothing.
  const tag = signedIn?.idHash
    ? createHash('sha256').update(`slabdesk-page-session:${signedIn.idHash}`).digest('base64url')
    : undefined;
  const facts = {
    mode: apiKey.startsWith('svc_test_') ? 'test' : 'live',
    'keep-days': days,
    user: signedIn?.name,
    role: signedIn?.role,
    csrf: signedIn?.csrfToken,
    session: tag?.slice(0, 22),
  };
  const meta = Object.entries(facts)
    .filter(([, value]) => value !== undefined)
    .map(
      ([name, value]) => `<meta name="slabdesk-${name}" content="${escapeHtml(String(value))}" />`,
    )
    .join('\n    ');
  return html.includes('</head>') ? html.replace('</head>', `    ${meta}\n  </head>`) : html;
}

/** The page for every path no route or file took, with its boot facts and a policy of its own. */
export function pageRoute(
  app: FastifyInstance,
  deps: { pages: PageSource; gate: AuthGate; upstream: Upstream; imageOrigins: readonly string[] },
): void {
  const { pages, gate, upstream, imageOrigins } = deps;
  app.setNotFoundHandler(async (request, reply) => {
    const { admission } = request;
    if (!admission.pageAllowed) return gate.toSignIn(request, reply);
    const nonce = pages.development ? newNonce() : undefined;
    const page = await pages.pageHtml(pathnameOf(request), nonce);
    if (page === null) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The dashboard is not built: run `npm run build` first.\n');
    }
    const html = withBootFacts(page, upstream.apiKey, admission.session ?? null, gate.keepDays);
    // The inline styles are the bundle's (in `page`), not the boot facts added to it.
    const styleHashes = inlineStyleHashes(page);
    const host = request.headers.host;
    const csp = contentSecurityPolicy({ nonce, host, styleHashes, imageOrigins });
    return reply
      .header('content-security-policy', csp)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(html);
  });
}
