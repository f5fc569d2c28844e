import { bootSession } from '../lib/session';
import { READ_ONLY_NOTICE_ID, useWriteAccess, type WriteAccess } from '../lib/write-access';

/** Deactivation is the owner's; its own module, so only pages with the button carry it. */
export const EDITOR_DEACTIVATE_REASON =
  'You are signed in as an editor: only an owner can deactivate listings.';

/** The id of the words that say why Deactivate is off for this person (an editor). */
export const DEACTIVATE_REASON_ID = 'deactivate-reason';

/**
 * Whether this person may deactivate: an owner (or sign-in off) when the key can write; never an
 * editor or a viewer.
 */
export function useDeactivateAccess(): WriteAccess {
  const access = useWriteAccess();
  if (!access.canWrite) return access;
  return bootSession()?.role === 'editor'
    ? { canWrite: false, reason: EDITOR_DEACTIVATE_REASON, known: true }
    : access;
}

/**
 * Props for a Deactivate button, disabled with the read-only notice or, for an editor, with the
 * words of `DeactivateReason` (render it beside the button).
 */
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
