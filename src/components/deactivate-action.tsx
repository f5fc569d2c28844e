import { ConfirmDialog } from './confirm-dialog';
import type { useDeactivateListing } from '../api/listings/listing-mutations';
import { bootSession } from '../lib/session';
import { READ_ONLY_NOTICE_ID, useWriteAccess, type WriteAccess } from '../lib/write-access';

/** Deactivation is the owner's; its own module, so only pages with the button carry it. */
export const EDITOR_DEACTIVATE_REASON =
  'You are signed in as an editor: only an owner can deactivate listings.';

/** The id of the words that say why Deactivate is off for this person (an editor). */
export const DEACTIVATE_REASON_ID = 'deactivate-reason';

/** Whether this person may deactivate: an owner (or sign-in off) with a key that writes. */
export function useDeactivateAccess(): WriteAccess {
  const access = useWriteAccess();
  if (!access.canWrite) return access;
  return bootSession()?.role === 'editor'
    ? { canWrite: false, reason: EDITOR_DEACTIVATE_REASON, known: true }
    : access;
}

/** A Deactivate button's props, disabled with the read-only or the editor's reason. */
export function useDeactivateButton(): { disabled?: true; 'aria-describedby'?: string } {
  const write = useWriteAccess();
  const access = useDeactivateAccess();
  if (!write.canWrite) return { disabled: true, 'aria-describedby': READ_ONLY_NOTICE_ID };
  return access.canWrite ? {} : { disabled: true, 'aria-describedby': DEACTIVATE_REASON_ID };
}

/** Why Deactivate is off when the key can write but this person may not (an editor). */
export function DeactivateReason() {
  const write = useWriteAccess();
  const access = useDeactivateAccess();
  if (!write.canWrite || access.canWrite) return null;
  return (
    <span className="muted" id={DEACTIVATE_REASON_ID}>
      {access.reason}
    </span>
  );
}

/** The one "Deactivate this listing?" confirmation; `onDone` gets the words to say. */
export function DeactivateDialog({
  open,
  deactivate,
  onClose,
  onDone,
}: {
  open: boolean;
  deactivate: ReturnType<typeof useDeactivateListing>;
  onClose(): void;
  onDone(words: string): void;
}) {
  return (
    <ConfirmDialog
      open={open}
      title="Deactivate this listing?"
      confirmLabel="Deactivate"
      danger
      busy={deactivate.isPending}
      onCancel={onClose}
      onConfirm={() =>
        deactivate.mutate(undefined, {
          onSuccess: () =>
            onDone('Deactivated: the listing is off the marketplace. You can reactivate it.'),
          onSettled: onClose,
        })
      }
    >
      <p>
        It leaves the marketplace now. You can reactivate it later; a pending-approval listing is
        withdrawn.
      </p>
    </ConfirmDialog>
  );
}
