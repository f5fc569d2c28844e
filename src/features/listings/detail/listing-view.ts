import type { ListingDetailRead, ListingRead } from '../../../client';

/** One listing as its pages show it (single view + catalogue row); `undefined`: not given. */
export type ListingView = ReturnType<typeof toListingView>;

export function toListingView(detail: ListingDetailRead, row?: ListingRead) {
  const card = detail.card ?? {};
  const listed = row?.card ?? {};
  return {
    id: detail.id,
    title: detail.title,
    status: detail.status,
    reason: detail.unavailable_reason,
    canReactivate: detail.can_reactivate,
    price: detail.price,
    url: detail.url,
    card: {
      id: card.id ?? listed.id,
      title: card.title ?? listed.title,
      certNumber: card.cert_number ?? listed.cert_number,
      grader: card.grader ?? listed.grader,
      grade: card.grade ?? listed.grade,
      url: card.url,
      player: card.player !== undefined ? card.player : listed.player,
      year: card.year !== undefined ? card.year : listed.year,
      set: card.set ?? listed.set,
      variant: card.variant ?? listed.variant,
      category: card.category ?? listed.category,
    },
    isLot: detail.is_lot ?? row?.is_lot,
    cardCount: detail.card_count ?? row?.card_count,
    createdAt: detail.created_at ?? row?.created_at,
    listedAt: detail.listed_at !== undefined ? detail.listed_at : row?.listed_at,
    updatedAt: detail.updated_at ?? row?.updated_at,
    acceptsOffers: detail.accepts_offers ?? row?.accepts_offers,
    minimumOffer: detail.minimum_offer !== undefined ? detail.minimum_offer : row?.minimum_offer,
    acceptsTrades: detail.accepts_trades ?? row?.accepts_trades,
    autoRelist: detail.auto_relist ?? row?.auto_relist,
    promoted: detail.promoted ?? row?.promoted,
    durationHours: detail.duration_hours ?? row?.duration_hours,
    windowEndsAt: detail.window_ends_at !== undefined ? detail.window_ends_at : row?.window_ends_at,
    scheduledGoLiveAt:
      detail.scheduled_go_live_at !== undefined
        ? detail.scheduled_go_live_at
        : row?.scheduled_go_live_at,
    description: detail.description ?? row?.description,
    images: detail.images ?? [],
    unreadable: detail.unreadable ?? [],
  };
}

/** Graders whose certs the marketplace reviews before a new listing goes live (create rule 2). */
export const REVIEWED_GRADERS: readonly string[] = ['SGC', 'CGC'];

/** Whether a cert of this grader, listed by its number, goes to the marketplace's review. */
export const goesToReview = (grader: string | null | undefined): boolean =>
  grader !== null && grader !== undefined && REVIEWED_GRADERS.includes(grader);

/** A listing waiting for the marketplace's review: only the review can put it live. */
export const isPendingReview = (view: Pick<ListingView, 'reason'>): boolean =>
  view.reason === 'pending_review';

/** A listing that has never gone live (scheduled): it may be released or rescheduled. */
export function isNotLiveYet(view: ListingView): boolean {
  if (view.status !== 'draft' || isPendingReview(view)) return false;
  return view.reason === 'scheduled' || view.listedAt === null;
}
