/** Any origin will do: only paths that stay on it are kept, and it never appears in an answer. */
const HERE = 'http://slabdesk.invalid';

/** Encoded dots, slashes, backslashes: decoded by a URL parser or a proxy, they can make `//host`. */
const ENCODED_TRICK = /%(2e|2f|5c)/i;

const hasControl = (text: string) =>
  [...text].some((char) => char < ' ' || (char >= '\u007f' && char <= '\u009f'));

/** Where to go after sign-in: `next` normalised when it is a path on this server, else `/`. */
export function safeNext(next: string | null | undefined): string {
  if (!next || next.length > 2000) return '/';
  if (!next.startsWith('/') || next.startsWith('//')) return '/';
  // A browser reads a backslash as a slash and drops a tab or newline inside a URL.
  if (next.includes('\\') || hasControl(next) || ENCODED_TRICK.test(next)) return '/';
  let parsed: URL;
  try {
    parsed = new URL(next, HERE);
  } catch {
    return '/';
  }
  if (parsed.origin !== HERE) return '/';
  // `/.//host` and `/..//host` normalise to `//host`: a host to a browser, not a path.
  if (parsed.pathname.startsWith('//') || parsed.pathname.includes('\\')) return '/';
  if (parsed.pathname === '/sign-in' || parsed.pathname.startsWith('/auth/')) return '/';
  // The normalised form is returned, so the browser resolves exactly the path checked here.
  const normalised = `${parsed.pathname}${parsed.search}${parsed.hash}`;
  // Resolved once more, it must land on the same path (no second reading of it differs).
  return new URL(normalised, HERE).href === parsed.href ? normalised : '/';
}
