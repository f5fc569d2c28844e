/**
 * Listings the live stream reported sold in this tab's life. A bulk job asks here just before
 * each write is sent: a card that sold meanwhile is taken out of the job and reported, unsent.
 */
const sold = new Set<string>();

export function markSold(listingId: string): void {
  sold.add(listingId);
}

export function soldMeanwhile(listingId: string): boolean {
  return sold.has(listingId);
}
