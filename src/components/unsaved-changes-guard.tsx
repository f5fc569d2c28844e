import { useBlocker } from 'react-router';
import { ConfirmDialog } from './confirm-dialog';

/** Asks before leaving a form with unsaved changes (in-app navigation and tab close). */
export function UnsavedChangesGuard({ when }: { when: boolean }) {
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
