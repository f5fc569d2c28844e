import { useLocation } from 'react-router';
import { useState } from 'react';
import { bootSession, refreshSession, signInAgainPath, useSessionEnded } from '../lib/session';

const ROLE_WORDS = { owner: 'owner', editor: 'editor', viewer: 'viewer (read only)' } as const;

/**
 * The signed-in person and role, once, with Sign out and Sign out everywhere: plain forms that
 * post the session's CSRF token, so they work without the page's script. Nothing when sign-in
 * is off on this server.
 */
export function SessionControls() {
  const session = bootSession();
  if (!session) return null;
  return (
    <div className="session" aria-label="Signed in">
      <span className="session-who">
        Signed in as <strong>{session.name}</strong>, {ROLE_WORDS[session.role]}
      </span>
      <form method="post" action="/auth/sign-out">
        <input type="hidden" name="csrf" value={session.csrf} />
        <button type="submit">Sign out</button>
      </form>
      <form method="post" action="/auth/sign-out-everywhere">
        <input type="hidden" name="csrf" value={session.csrf} />
        <button type="submit">Sign out everywhere</button>
      </form>
    </div>
  );
}

/**
 * Said when an API call answered 401 sign_in_required: the session ended (signed out elsewhere,
 * or expired). A link, not a redirect: whatever the seller typed on this page stays.
 */
export function SessionEndedBanner() {
  const ended = useSessionEnded();
  const location = useLocation();
  const [stillOut, setStillOut] = useState(false);
  if (!ended) return null;
  return (
    <div className="banner banner-warn" role="alert">
      <p>
        <strong>Your session has ended.</strong>{' '}
        <a href={signInAgainPath(location)} target="_blank" rel="noopener">
          Sign in again
        </a>{' '}
        (it opens in a new tab, so nothing typed here is lost), then come back here.
      </p>
      <p>
        <button
          type="button"
          onClick={() =>
            void refreshSession().then(
              (back) => setStillOut(!back),
              () => setStillOut(true),
            )
          }
        >
          I signed in again: carry on
        </button>
        {stillOut && ' Not signed in yet: sign in in the other tab first.'}
      </p>
    </div>
  );
}
