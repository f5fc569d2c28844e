/**
 * Where to go after sign-in: `next` when it is a path on this server, else `/` (no absolute or `//`
 * URLs, backslashes, control characters or sign-in routes).
 */
export function safeNext(next: string | null | undefined): string {
  if (!next || next.length > 2000) return '/';
  if (!next.startsWith('/') || next.startsWith('//')) return '/';
  // Backslashes, and control characters (a browser drops a tab or newline inside a URL).
  if (next.includes('\\') || [...next].some((char) => char < ' ' || char === '\u007f')) return '/';
  let parsed: URL;
  try {
    parsed = new URL(next, 'http://slabdesk.invalid');
  } catch {
    return '/';
  }
  if (parsed.origin !== 'http://slabdesk.invalid') return '/';
  if (parsed.pathname === '/sign-in' || parsed.pathname.startsWith('/auth/')) return '/';
  return `${parsed.pathname}${parsed.search}${parsed.hash}`;
}
