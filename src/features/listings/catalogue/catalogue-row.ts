import type { ListingRead } from '../../../client';
import { listingReason, type ReasonSources } from '../../../api/listings/listing-reason';

/** The spec's one sale reason (`archived`, `sold`); other codes are shown as given. */
export function isSoldReason(reason: string | null | undefined): boolean {
  return reason === 'sold';
}

/** `reasons` and `sold` (from orders) beyond the list row; sold per the orders reads as sold. */
export function toCatalogueRow(
  listing: ListingRead,
  reasons?: ReasonSources,
  sold?: ReadonlySet<string>,
) {
  const card = listing.card ?? {};
  const gradeValue = card.grade === undefined ? undefined : Number(card.grade);
  const player = card.player ?? undefined;
  const reason = listingReason(listing, reasons);
  // Named one by one: a spread here took a slow path per row of a 100,000-row catalogue.
  return {
    id: listing.id,
    title: listing.title,
    status: listing.status,
    /** The state a seller filters by: `sold`, the off-marketplace reason, or the status. */
    state: stateOf(listing.status, reason.reason, sold?.has(listing.id) ?? false),
    /** Why it is unavailable: null while available, undefined when no view says. */
    reason: reason.reason,
    /** Where the reason came from: the listing itself, or its card's inventory level. */
    reasonSource: reason.source,
    canReactivate: reason.canReactivate,
    price: listing.price === undefined ? undefined : Number(listing.price),
    priceText: listing.price,
    /** Not shown by the spec: a value only when the server sent one. */
    minimumOffer: listing.minimum_offer,
    player,
    cert: card.cert_number,
    grader: card.grader,
    grade: card.grade,
    gradeValue: gradeValue !== undefined && Number.isFinite(gradeValue) ? gradeValue : undefined,
    category: card.category,
    year: card.year,
    set: card.set,
    /** The cover photo, when the list view carries one (the documented one does not). */
    imageSrc: listing.images?.[0]?.src,
    /** The card's id, which is its inventory item id. */
    itemId: card.id,
    isLot: listing.is_lot,
    cardCount: listing.card_count,
    offers: listing.accepts_offers,
    trades: listing.accepts_trades,
    autoRelist: listing.auto_relist,
    promoted: listing.promoted,
    durationHours: listing.duration_hours,
    description: listing.description,
    windowEndsAt: listing.window_ends_at,
    createdAt: listing.created_at,
    listedAt: listing.listed_at,
    updatedAt: listing.updated_at,
    /** Fields the server sent in a form that could not be read (dotted paths). */
    unreadable: listing.unreadable ?? [],
    /** The row's search words, built on first use or when idle (`fillSearchTexts`), never to draw. */
    search: undefined as string | undefined,
  };
}

/** One catalogue row from a list-view row (and its level); a field no view gives is `undefined`. */
export type CatalogueRow = ReturnType<typeof toCatalogueRow>;

/** The words a row is found by: its title, player, cert, set, category and id, lower-cased. */
export function searchTextOf(row: CatalogueRow): string {
  return (row.search ??= searchText(
    row.title,
    row.player,
    row.cert,
    row.set,
    row.category,
    row.id,
  ));
}

/** Rows whose search text one idle slice builds (about 2 ms at 100,000 rows' text lengths). */
const FILL_SLICE = 2000;

/** Runs `step` when the page is next idle (a short task soon where there are no idle callbacks). */
function whenIdle(step: (timeLeft: () => number) => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback((deadline) => step(() => deadline.timeRemaining()));
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(() => {
    const end = performance.now() + 8;
    step(() => end - performance.now());
  }, 16);
  return () => clearTimeout(handle);
}

/** Builds search texts in idle slices; a search before then builds the rest itself. */
export function fillSearchTexts(rows: readonly CatalogueRow[]): () => void {
  let at = 0;
  const step = (timeLeft: () => number) => {
    while (at < rows.length && timeLeft() > 1) {
      const end = Math.min(rows.length, at + FILL_SLICE);
      for (; at < end; at++) searchTextOf(rows[at]!);
    }
    if (at < rows.length) cancel = whenIdle(step);
  };
  let cancel = whenIdle(step);
  return () => cancel();
}

/** The words a row is found by: the given texts that are there, space-separated, lower-cased. */
function searchText(...texts: (string | null | undefined)[]): string {
  let out = '';
  for (const text of texts) if (text) out = out === '' ? text : `${out} ${text}`;
  return out.toLowerCase();
}

/** The state a seller reads: sold, else an off-marketplace reason, else the status. */
export function stateOf(
  status: string | undefined,
  reason: string | null | undefined,
  soldByOrder = false,
): string | undefined {
  if (soldByOrder || (status === 'archived' && isSoldReason(reason))) return 'sold';
  if (status !== 'active' && reason) return reason;
  return status;
}

/** Whether a listing needs its card's inventory level to say why it is unavailable. */
export function needsAvailability(listing: ListingRead): boolean {
  return listing.status !== 'active' && listing.unavailable_reason === undefined;
}
