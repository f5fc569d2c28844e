/**
 * When the seller last asked for a read: a failed kept collection retries on its own only after a
 * back-off, but at once when asked.
 */
let askedAt = Number.NEGATIVE_INFINITY;

/** How long after a click a fetch counts as the seller's (the click's refetch starts at once). */
const ASK_WINDOW_MS = 2000;

/** Notes that the seller asked for a read now (call it in the click handler, before the refetch). */
export function noteSellerAsked(): void {
  askedAt = Date.now();
}

/**
 * Whether the seller asked for a read a moment ago: every kept list the click refreshes asks the
 * hub for the newest (one shared catch-up read of each collection on the hub).
 */
export function takeSellerAsk(): boolean {
  return Date.now() - askedAt <= ASK_WINDOW_MS;
}
