/** Text made safe inside HTML text and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

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
  if (!URL.canParse(next, HERE)) return '/';
  const parsed = new URL(next, HERE);
  if (parsed.origin !== HERE) return '/';
  // `/.//host` and `/..//host` normalise to `//host`: a host to a browser, not a path.
  if (parsed.pathname.startsWith('//') || parsed.pathname.includes('\\')) return '/';
  if (parsed.pathname === '/sign-in' || parsed.pathname.startsWith('/auth/')) return '/';
  // The normalised form is returned, so the browser resolves exactly the path checked here.
  const normalised = `${parsed.pathname}${parsed.search}${parsed.hash}`;
  // Resolved once more, it must land on the same path (no second reading of it differs).
  return new URL(normalised, HERE).href === parsed.href ? normalised : '/';
}

/** The sign-in page's look: the dashboard's colours and type (src/app/styles.css), one column. */
const STYLE = `
:root{--ink:#1b1f24;--muted:#4a5460;--line:#d5dae0;--bg:#f6f7f9;--panel:#fff;--accent:#0b57c2;
--err-bg:#fdecea;--err-ink:#7a1712;--info-bg:#e8f0fc;--info-ink:#123a73;
font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;font-size:15px;color:var(--ink);background:var(--bg)}
*{box-sizing:border-box}
body{margin:0;min-height:100vh}
header{background:#14212f;color:#fff;padding:.6rem 1.2rem;font-weight:700;font-size:1.15rem}
main{max-width:26rem;margin:2rem auto;padding:0 1rem}
.panel{background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:1.2rem}
h1{font-size:1.5rem;margin:.2rem 0 .4rem}
p{margin:.4rem 0 .8rem;line-height:1.4}
.muted{color:var(--muted)}
form{display:flex;flex-direction:column;gap:.9rem}
.field{display:flex;flex-direction:column;gap:.25rem}
label{font-weight:600}
input{font:inherit;padding:.55rem .6rem;border:1px solid #8a96a3;border-radius:6px;background:#fff;color:var(--ink);width:100%}
button{font:inherit;font-weight:600;padding:.6rem .9rem;border-radius:6px;border:1px solid var(--accent);background:var(--accent);color:#fff;cursor:pointer}
:focus-visible{outline:3px solid #f5a623;outline-offset:1px}
.alert:empty{display:none}
.alert{background:var(--err-bg);color:var(--err-ink);border:1px solid #f1b0a9;border-radius:6px;padding:.6rem .8rem;margin:0 0 .9rem}
.note{background:var(--info-bg);color:var(--info-ink);border-radius:6px;padding:.6rem .8rem}
`;

/** The form's pre-session token, where to go after (a checked path), the name typed, words. */
export interface SignInPageFacts {
  formToken: string;
  next: string;
  name?: string;
  /** Announced in the `role="alert"` region. */
  error?: string;
  /** Signed out, or the session ended. */
  notice?: string;
}

/** The sign-in page: a real form, no script, readable on a 390 px phone. */
export function signInPage(facts: SignInPageFacts): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<meta name="robots" content="noindex" />
<title>Sign in · Slabdesk</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml" />
<style>${STYLE}</style>
</head>
<body>
<header>Slabdesk</header>
<main>
<div class="panel">
<h1>Sign in</h1>
<p class="muted">Sign in to see your listings, orders and payouts.</p>
${facts.notice ? `<p class="note" role="status">${escapeHtml(facts.notice)}</p>` : ''}
<div class="alert" role="alert" id="sign-in-error">${escapeHtml(facts.error ?? '')}</div>
<form method="post" action="/sign-in">
<input type="hidden" name="csrf" value="${escapeHtml(facts.formToken)}" />
<input type="hidden" name="next" value="${escapeHtml(facts.next)}" />
<div class="field">
<label for="name">Name</label>
<input id="name" name="name" type="text" autocomplete="username" autocapitalize="none" spellcheck="false" maxlength="40" required value="${escapeHtml(facts.name ?? '')}"${facts.error ? ' aria-describedby="sign-in-error"' : ''} />
</div>
<div class="field">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" maxlength="1024" required />
</div>
<button type="submit">Sign in</button>
</form>
<p class="muted">No account yet? Ask the shop's owner to add you.</p>
</div>
</main>
</body>
</html>
`;
}
