import { useCallback, useEffect } from 'react';
import { useBlocker } from '../lib/router/router-view';
import type { BlockerFunction } from '../lib/router/router';
import { ConfirmDialog } from './confirm-dialog';

/**
 * Asks before leaving a form with unsaved changes: for another page of the dashboard (a link, a
 * shortcut, back or forward) in our own dialog, and on closing or reloading the tab, or leaving
 * for another site, in the browser's.
 */
export function UnsavedChangesGuard({ when }: { when: boolean }) {
  useEffect(() => {
    if (!when) return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [when]);
  const leaving = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) =>
      when && currentLocation.pathname !== nextLocation.pathname,
    [when],
  );
  const blocked = useBlocker(leaving);
  return (
    <ConfirmDialog
      open={blocked !== null}
      title="Leave without saving?"
      confirmLabel="Leave and lose changes"
      cancelLabel="Stay on this page"
      danger
      onCancel={() => blocked?.reset()}
      onConfirm={() => blocked?.proceed()}
    >
      <p>Your changes on this page have not been sent.</p>
    </ConfirmDialog>
  );
}
