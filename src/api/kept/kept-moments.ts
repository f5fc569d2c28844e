/** Kept-copy work runs in idle slices, never a frame from typing; hidden pages never wait. */

/** What a slice needs left of an idle period to start in it (ms). */
const SLICE_MS = 6;
/** The longest a slice waits for idle: short once rows are whole, longer while a walk draws. */
const WAIT_MS = { whole: 100, walking: 1000 };

/** The idle period slices are running in now. */
let period: IdleDeadline | undefined;

const room = () => (period && !period.didTimeout ? period.timeRemaining() : 0);

/** Waits for a moment to spare; resolves to its ms (Infinity when nothing is drawn). */
export function spareMoment(whole: boolean): Promise<number> {
  if (typeof document !== 'undefined' && document.visibilityState === 'hidden') {
    return Promise.resolve(Infinity);
  }
  if (typeof requestIdleCallback !== 'function') {
    return new Promise((ok) => setTimeout(() => ok(Infinity), 0));
  }
  if (room() >= SLICE_MS) return Promise.resolve(room());
  return new Promise((ok) =>
    requestIdleCallback(
      (deadline) => {
        period = deadline;
        ok(room());
      },
      { timeout: whole ? WAIT_MS.whole : WAIT_MS.walking },
    ),
  );
}
