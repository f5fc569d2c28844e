import { Link } from 'react-router';
import { useState, type ReactNode } from 'react';
import { READ_ONLY_NOTICE_ID, useWriteAccess } from '../lib/write-access';

/** The one notice that says why nothing can be changed with this key (on every page). */
export function ReadOnlyNotice() {
  const access = useWriteAccess();
  if (access.canWrite) return null;
  return (
    <p className="banner banner-info" role="note" id={READ_ONLY_NOTICE_ID}>
      <strong>Read-only.</strong> {access.reason} Editing, bulk edit, new listings and deactivation
      are turned off.
    </p>
  );
}

/** A link to a write (edit, new listing, bulk edit), or the same words disabled when read-only. */
export function WriteLink({
  to,
  className,
  children,
}: {
  to: string;
  className?: string;
  children: ReactNode;
}) {
  const access = useWriteAccess();
  if (access.canWrite) {
    return (
      <Link className={className} to={to}>
        {children}
      </Link>
    );
  }
  return (
    <button type="button" className={className} disabled aria-describedby={READ_ONLY_NOTICE_ID}>
      {children}
    </button>
  );
}

/** Props that disable a write button when the key is read-only. */
export function useWriteButton(): { disabled?: true; 'aria-describedby'?: string } {
  const access = useWriteAccess();
  return access.canWrite ? {} : { disabled: true, 'aria-describedby': READ_ONLY_NOTICE_ID };
}

/** A page that only writes: its content, or why it is off (keeping what was typed). */
export function ReadOnlyGate({ title, children }: { title: string; children: ReactNode }) {
  const access = useWriteAccess();
  const [opened, setOpened] = useState(false);
  const openNow = access.canWrite && access.known;
  // Learned during render (React's way to derive state from a change), so never a frame late.
  if (openNow && !opened) setOpened(true);
  if (access.canWrite || opened) {
    // One shape either way, so the form is never mounted anew (which would drop its values).
    return (
      <>
        {access.canWrite ? null : (
          <p className="banner banner-error" role="alert">
            <strong>Not saved: changes are turned off.</strong> {access.reason} What you typed is
            still below.
          </p>
        )}
        {children}
      </>
    );
  }
  return (
    <section aria-labelledby="read-only-heading">
      <h1 id="read-only-heading">{title}</h1>
      <p>Nothing can be changed here, so this page is turned off. {access.reason}</p>
    </section>
  );
}
