import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Upstream } from '../api-proxy';
import type { AuthGate } from '../auth/auth-gate';
import { escapeHtml } from '../auth/html-escape';
import type { PageSource } from '../page-source';
import { pathnameOf } from '../request-url';
import { contentSecurityPolicy, inlineStyleHashes, newNonce } from '../security-headers';

/** The signed-in person as the page is told (absent: sign-in is off, the page acts as owner). */
interface SignedIn {
  name: string;
  role: string;
  csrfToken: string;
  idHash?: string;
}

/** Facts in the page, so its first paint knows them: key mode, days kept, who, the CSRF token. */
function withBootFacts(html: string, apiKey: string, signedIn: SignedIn | null, days?: number) {
  const mode = apiKey.startsWith('svc_test_') ? 'test' : 'live';
  const metas = [`<meta name="slabdesk-mode" content="${mode}" />`];
  if (days !== undefined) metas.push(`<meta name="slabdesk-keep-days" content="${days}" />`);
  if (signedIn) {
    metas.push(
      `<meta name="slabdesk-user" content="${escapeHtml(signedIn.name)}" />`,
      `<meta name="slabdesk-role" content="${escapeHtml(signedIn.role)}" />`,
      `<meta name="slabdesk-csrf" content="${escapeHtml(signedIn.csrfToken)}" />`,
    );
    // The outbox's "made by": a one-way tag of the stored hash, itself one-way; it opens nothing.
    if (signedIn.idHash) {
      const tag = createHash('sha256')
        .update(`slabdesk-page-session:${signedIn.idHash}`)
        .digest('base64url')
        .slice(0, 22);
      metas.push(`<meta name="slabdesk-session" content="${tag}" />`);
    }
  }
  const meta = metas.join('\n    ');
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
