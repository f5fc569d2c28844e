import { useLocation } from 'react-router';
import { useState, type FormEvent } from 'react';
import { PopoverButton } from '../components/popover-button';
import { NARROW_QUERY, useMediaQuery } from '../components/use-media-query';
import { bootSession, resetSessionEnded, SESSION_FACTS, useSessionEnded } from '../lib/session';
import { clearAccountData } from './clear-account';

/** Clears the account's data from this browser, then posts the sign-out form. */
function signOutCleanly(event: FormEvent<HTMLFormElement>) {
  event.preventDefault();
  const form = event.currentTarget;
  void clearAccountData().finally(() => form.submit());
}

/** After signing in again elsewhere: the boot facts (a new CSRF token) read anew; false without one. */
export async function refreshSession(): Promise<boolean> {
  const response = await fetch('/', {
    credentials: 'same-origin',
    headers: { accept: 'text/html' },
  });
  if (!response.ok || response.redirected) return false;
  const page = new DOMParser().parseFromString(await response.text(), 'text/html');
  const names = SESSION_FACTS;
  const fresh = names.map((name) =>
    page.querySelector(`meta[name="${name}"]`)?.getAttribute('content'),
  );
  if (fresh.slice(0, 3).some((value) => !value)) return false;
  names.forEach((name, index) => {
    let element = document.querySelector(`meta[name="${name}"]`);
    if (!element) {
      element = document.createElement('meta');
      element.setAttribute('name', name);
      document.head.append(element);
    }
    element.setAttribute('content', fresh[index] ?? '');
  });
  resetSessionEnded();
  return true;
}

/** Where to sign in again and come back to this page. */
export function signInAgainPath(location: { pathname: string; search: string }): string {
  return `/sign-in?next=${encodeURIComponent(`${location.pathname}${location.search}`)}`;
}

const ROLE_WORDS = { owner: 'owner', editor: 'editor', viewer: 'viewer (read only)' } as const;

// The session's parts of the frame: a chunk loaded only with a session.

/** The signed-in person and role, with sign-out forms that work without script; none without sign-in. */
export function SessionControls() {
  const session = bootSession();
  const narrow = useMediaQuery(NARROW_QUERY);
  if (!session) return null;
  const who = (
    <span className="session-who">
      Signed in as <strong>{session.name}</strong>, {ROLE_WORDS[session.role]}
    </span>
  );
  const forms = (
    <>
      <form method="post" action="/auth/sign-out" onSubmit={signOutCleanly}>
        <input type="hidden" name="csrf" value={session.csrf} />
        <button type="submit">Sign out</button>
      </form>
      <form method="post" action="/auth/sign-out-everywhere" onSubmit={signOutCleanly}>
        <input type="hidden" name="csrf" value={session.csrf} />
        <button type="submit">Sign out everywhere</button>
      </form>
    </>
  );
  // On a phone the header is one short row: the person and the sign-out forms fold behind a button.
  if (narrow)
    return (
      <PopoverButton className="session-menu" label="Account" panelLabel="Signed in">
        {() => (
          <div className="session-panel">
            {who}
            {forms}
          </div>
        )}
      </PopoverButton>
    );
  return (
    <div className="session" aria-label="Signed in">
      {who}
      {forms}
    </div>
  );
}

/** Said on a 401 sign_in_required: a link, not a redirect, so whatever the seller typed stays. */
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
