import type { ListingUpdated, ListingUpdateInput } from '../../client';
import { ownEntry } from '../../shared/own-entry';
import { readKeptMap, writeKept } from '../local-store';

/** Sale terms written here, per listing, shown dated where reads show no current value. */
export interface WrittenTerms {
  /** When the write was acknowledged (ISO). */
  at: string;
  minimumOffer?: string | null;
  acceptsOffers?: boolean;
  acceptsTrades?: boolean;
  autoRelist?: boolean;
  promoted?: boolean;
  durationHours?: number;
  description?: string;
}

const STORAGE_KEY = 'slabdesk.written-terms.v1';
/** Most listings remembered; the oldest are forgotten first. */
const MAX_LISTINGS = 2000;

type Store = Record<string, WrittenTerms>;

const load = (): Store => readKeptMap<WrittenTerms>(STORAGE_KEY);

export function writtenTerms(listingId: string): WrittenTerms | undefined {
  return ownEntry(load(), listingId);
}

/** Remembers what one acknowledged write set: the echo and the terms it does not echo. */
export function rememberWrite(
  listingId: string,
  sent: ListingUpdateInput | undefined,
  echoed: Partial<Pick<ListingUpdated, 'minimum_offer' | 'accepts_offers'>> = {},
  at = new Date(),
): void {
  const store = load();
  const previous = ownEntry(store, listingId);
  const next: WrittenTerms = { ...previous, at: at.toISOString() };
  if (echoed.accepts_offers !== undefined) next.acceptsOffers = echoed.accepts_offers;
  if (echoed.minimum_offer !== undefined) next.minimumOffer = echoed.minimum_offer;
  if (sent?.accepts_trades !== undefined) next.acceptsTrades = sent.accepts_trades;
  if (sent?.auto_relist !== undefined) next.autoRelist = sent.auto_relist;
  if (sent?.promoted === true) next.promoted = true;
  if (sent?.duration_hours !== undefined) next.durationHours = sent.duration_hours;
  if (sent?.description !== undefined) next.description = sent.description;
  const changed = Object.keys(next).length > 1;
  if (!changed) return;
  delete store[listingId];
  store[listingId] = next;
  const ids = Object.keys(store);
  for (const id of ids.slice(0, Math.max(0, ids.length - MAX_LISTINGS))) delete store[id];
  writeKept(STORAGE_KEY, store); // refused: only the "last set here" hints are lost
}
