import type { Upstream } from './api-proxy';

/** The key's mode, from its prefix alone (the key itself never leaves the server). */
export function modeOfKey(apiKey: string): 'live' | 'test' {
  return apiKey.startsWith('svc_test_') ? 'test' : 'live';
}

/**
 * Facts the page needs before its first API answer, written into its HTML: the mode of the key
 * the server holds, so the test-mode banner shows from the first paint.
 */
export function withBootFacts(html: string, upstream: Pick<Upstream, 'apiKey'>): string {
  const meta = `<meta name="slabdesk-mode" content="${modeOfKey(upstream.apiKey)}" />`;
  return html.includes('</head>') ? html.replace('</head>', `    ${meta}\n  </head>`) : html;
}
