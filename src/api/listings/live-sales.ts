/** Listings reported sold in this tab's life: a bulk job's write for one is taken out unsent. */
const sold = new Set<string>();

export function markSold(listingId: string): void {
  sold.add(listingId);
}

export function soldMeanwhile(listingId: string): boolean {
  return sold.has(listingId);
}
