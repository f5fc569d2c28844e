import { dismissClearedNote, useClearedNote } from './session-end';

/** Says what left this device when its session ended (and what was waiting, not sent). */
export function ClearedNote() {
  const note = useClearedNote();
  if (!note) return null;
  return (
    <div className="banner banner-warn" role="alert">
      <p>{note}</p>
      <p>
        <button type="button" onClick={dismissClearedNote}>
          OK
        </button>
      </p>
    </div>
  );
}
