import { createHash } from 'node:crypto';
import type { Upstream } from './api-proxy';
import { escapeHtml } from './auth/html-escape';

/** The key's mode, from its prefix alone (the key itself never leaves the server). */
export function modeOfKey(apiKey: string): 'live' | 'test' {
  return apiKey.startsWith('svc_test_') ? 'test' : 'live';
}

/** The signed-in person, as the page is told (absent: sign-in is off, the page acts as owner). */
export interface SignedIn {
  name: string;
  role: string;
  csrfToken: string;
  /** The session's stored id hash: the page is told a tag derived from it, never the hash. */
  idHash?: string;
}

/**
 * The session's tag as the page knows it: names the session a queued write was made in (the
 * outbox's "made by"), and opens nothing (a one-way hash of the stored hash, itself one-way).
 */
export function sessionTagOf(idHash: string): string {
  return createHash('sha256')
    .update(`slabdesk-page-session:${idHash}`)
    .digest('base64url')
    .slice(0, 22);
}

/**
 * Facts written into the page's HTML: the key's mode (the test-mode banner shows from the first
 * paint), how long the device keeps data unseen, and, when signed in, who, their role and the
 * CSRF token.
 */
export function withBootFacts(
  html: string,
  upstream: Pick<Upstream, 'apiKey'>,
  signedIn?: SignedIn | null,
  keep: { days?: number } = {},
): string {
  const metas = [`<meta name="slabdesk-mode" content="${modeOfKey(upstream.apiKey)}" />`];
  if (keep.days !== undefined) {
    metas.push(`<meta name="slabdesk-keep-days" content="${keep.days}" />`);
  }
  if (signedIn) {
    metas.push(
      `<meta name="slabdesk-user" content="${escapeHtml(signedIn.name)}" />`,
      `<meta name="slabdesk-role" content="${escapeHtml(signedIn.role)}" />`,
      `<meta name="slabdesk-csrf" content="${escapeHtml(signedIn.csrfToken)}" />`,
    );
    if (signedIn.idHash) {
      metas.push(`<meta name="slabdesk-session" content="${sessionTagOf(signedIn.idHash)}" />`);
    }
  }
  const meta = metas.join('\n    ');
  return html.includes('</head>') ? html.replace('</head>', `    ${meta}\n  </head>`) : html;
}
