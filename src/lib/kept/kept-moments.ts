/**
 * When a kept copy's work may run: in the page's idle periods, as many small slices as each one
 * holds, so writing never takes a frame from typing or drawing. A hidden page draws nothing and
 * is never kept waiting.
 */

/** What a slice needs left of an idle period to start in it (ms). */
const SLICE_MS = 6;
/**
 * The longest a slice waits for an idle period: short once the rows are whole (the copy must be
 * kept within moments), longer while a walk still draws its pages (the walk comes first).
 */
const WAIT_MS = { whole: 100, walking: 1000 };

/** The idle period slices are running in now. */
let period: IdleDeadline | undefined;

const room = () => (period && !period.didTimeout ? period.timeRemaining() : 0);

/**
 * Waits for a moment the page can spare a slice of work (a few ms of it); resolves to how many
 * ms that moment holds (Infinity where nothing is drawn: a hidden page, or no idle callbacks).
 */
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
