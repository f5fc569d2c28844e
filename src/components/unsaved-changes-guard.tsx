import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { ConfirmDialog } from './confirm-dialog';

/** Asks before leaving unsaved changes: our dialog in the app, the browser's on leaving. */
export function UnsavedChangesGuard({ when }: { when: boolean }) {
  useEffect(() => {
    if (!when) return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [when]);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      when && currentLocation.pathname !== nextLocation.pathname,
  );
  return (
    <ConfirmDialog
      open={blocker.state === 'blocked'}
      title="Leave without saving?"
      confirmLabel="Leave and lose changes"
      cancelLabel="Stay on this page"
      danger
      onCancel={() => blocker.reset?.()}
      onConfirm={() => blocker.proceed?.()}
    >
      <p>Your changes on this page have not been sent.</p>
    </ConfirmDialog>
  );
}
