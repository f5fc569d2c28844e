/** When the seller last asked for a read: a failed collection retries at once when asked. */
let askedAt = Number.NEGATIVE_INFINITY;
/** The kept collections that took the last ask (each starts one read of its own with it). */
const taken = new Set<string>();

/** How long after a click a fetch counts as the seller's (the click's refetch starts at once). */
const ASK_WINDOW_MS = 2000;

/** Notes that the seller asked for a read now (call it in the click handler, before the refetch). */
export function noteSellerAsked(): void {
  askedAt = Date.now();
  taken.clear();
}

/** Whether the seller asked for a read of `collection` a moment ago (one hub catch-up each). */
export function takeSellerAsk(collection: string): boolean {
  if (Date.now() - askedAt > ASK_WINDOW_MS || taken.has(collection)) return false;
  taken.add(collection);
  return true;
}
