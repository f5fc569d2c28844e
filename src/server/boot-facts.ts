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
}

/**
 * Facts written into the page's HTML: the key's mode (the test-mode banner shows from the first
 * paint) and, when signed in, who, their role and the CSRF token.
 */
export function withBootFacts(
  html: string,
  upstream: Pick<Upstream, 'apiKey'>,
  signedIn?: SignedIn | null,
): string {
  const metas = [`<meta name="slabdesk-mode" content="${modeOfKey(upstream.apiKey)}" />`];
  if (signedIn) {
    metas.push(
      `<meta name="slabdesk-user" content="${escapeHtml(signedIn.name)}" />`,
      `<meta name="slabdesk-role" content="${escapeHtml(signedIn.role)}" />`,
      `<meta name="slabdesk-csrf" content="${escapeHtml(signedIn.csrfToken)}" />`,
    );
  }
  const meta = metas.join('\n    ');
  return html.includes('</head>') ? html.replace('</head>', `    ${meta}\n  </head>`) : html;
}
