import { GRADERS, type ListingCreateInput, type ListingUpdateInput } from '../../../client';
import { toApiAmount } from '../../../client/listing-rules';
import type { EditListingForm, NewListingForm, SetTo } from './listing-form-schemas';
import { goesToReview, type ListingView } from '../detail/listing-view';

/** A known on/off term starts as a checkbox; one the API does not show as "leave unchanged". */
const setTo = (value: boolean | undefined): SetTo => (value === undefined ? '' : value);

/** The edit form's starting values; a term no view gives starts empty: "leave it unchanged". */
export function editDefaults(view: ListingView): EditListingForm {
  return {
    price: view.price ?? '',
    title: view.title ?? '',
    description: view.description ?? '',
    accepts_offers: setTo(view.acceptsOffers),
    minimum_offer: view.minimumOffer ?? '',
    clear_minimum_offer: false,
    accepts_trades: setTo(view.acceptsTrades),
    auto_relist: setTo(view.autoRelist),
    promoted: view.promoted ?? false,
    duration_hours: '',
  };
}

/** The value an on/off field sends, or undefined to leave it unchanged. */
function sendSetTo(value: SetTo, dirty: boolean | undefined): boolean | undefined {
  if (typeof value === 'boolean') return dirty ? value : undefined;
  if (value === '') return undefined;
  return value === 'yes';
}

/** Only changed fields go in the PUT; an unshown field only when the seller set it. */
export function toUpdatePatch(
  values: EditListingForm,
  dirty: Partial<Record<keyof EditListingForm, boolean | undefined>>,
  known: Pick<ListingView, 'minimumOffer' | 'description'> = {
    minimumOffer: null,
    description: '',
  },
): ListingUpdateInput {
  const patch: ListingUpdateInput = {};
  if (dirty.price) patch.price = toApiAmount(values.price);
  if (dirty.title) patch.title = values.title.trim();
  if (dirty.description && (known.description !== undefined || values.description !== '')) {
    patch.description = values.description;
  }
  const offers = sendSetTo(values.accepts_offers, dirty.accepts_offers);
  if (offers !== undefined) patch.accepts_offers = offers;
  if (known.minimumOffer === undefined) {
    if (values.clear_minimum_offer) patch.minimum_offer = null;
    else if (values.minimum_offer.trim() !== '')
      patch.minimum_offer = toApiAmount(values.minimum_offer);
  } else if (dirty.minimum_offer) {
    patch.minimum_offer =
      values.minimum_offer.trim() === '' ? null : toApiAmount(values.minimum_offer);
  }
  const trades = sendSetTo(values.accepts_trades, dirty.accepts_trades);
  if (trades !== undefined) patch.accepts_trades = trades;
  const relist = sendSetTo(values.auto_relist, dirty.auto_relist);
  if (relist !== undefined) patch.auto_relist = relist;
  if (dirty.promoted && values.promoted) patch.promoted = true;
  if (values.duration_hours !== '') {
    patch.duration_hours = Number(values.duration_hours) as 168 | 336 | 504 | 720;
  }
  return patch;
}

export function newListingDefaults(prefill: {
  inventoryItemId?: string | null;
  sku?: string | null;
  /** The grader a scanned label named (ignored unless one of the four). */
  grader?: string | null;
  /** Check the card before it goes live: on unless this browser remembers it off. */
  review?: boolean;
}): NewListingForm {
  return {
    source: prefill.inventoryItemId ? 'inventory_item_id' : 'sku',
    sku: prefill.sku ?? '',
    inventory_item_id: prefill.inventoryItemId ?? '',
    price: '',
    grader: (GRADERS as readonly string[]).includes(prefill.grader ?? '')
      ? (prefill.grader as NewListingForm['grader'])
      : '',
    title: '',
    description: '',
    images: [],
    accepts_offers: true,
    minimum_offer: '',
    accepts_trades: false,
    auto_relist: false,
    promoted: false,
    duration_hours: '720',
    scheduled_go_live_at: '',
    review: prefill.review ?? true,
    use_card: false,
    card: { title: '', player: '', year: '', set: '', variant: '', grade: '', category: '' },
  };
}

/** How far ahead "check the card before it goes live" schedules a new listing. */
export const REVIEW_HOLD_MS = 30 * 60_000;

/** The body without the seller's check when only its go-live time was refused; else undefined. */
export function withoutReviewHold(
  values: NewListingForm,
  input: ListingCreateInput,
  fieldErrors: Readonly<Record<string, readonly string[] | undefined>>,
): ListingCreateInput | undefined {
  const fields = Object.keys(fieldErrors).filter((field) => fieldErrors[field]?.length);
  const holdRefused = fields.length === 1 && fields[0] === 'scheduled_go_live_at';
  if (!holdRefused || values.scheduled_go_live_at || input.scheduled_go_live_at === undefined) {
    return undefined;
  }
  const { scheduled_go_live_at: _dropped, ...rest } = input;
  return rest;
}

/** The POST body: only what the seller gave, so a cert plus a price stays a two-field request. */
export function toCreateInput(values: NewListingForm, now = Date.now()): ListingCreateInput {
  const input: ListingCreateInput = { price: toApiAmount(values.price) };
  if (values.source === 'sku') input.sku = values.sku.trim();
  else input.inventory_item_id = values.inventory_item_id.trim();
  if (values.grader && values.source === 'sku') input.grader = values.grader;
  if (values.title.trim()) input.title = values.title.trim();
  if (values.description) input.description = values.description;
  const images = values.images.map((image) => image.src.trim()).filter(Boolean);
  if (images.length > 0 && values.source === 'sku') input.images = images.map((src) => ({ src }));
  if (!values.accepts_offers) input.accepts_offers = false;
  if (values.accepts_offers && values.minimum_offer.trim()) {
    input.minimum_offer = toApiAmount(values.minimum_offer);
  }
  if (values.accepts_trades) input.accepts_trades = true;
  if (values.auto_relist) input.auto_relist = true;
  if (values.promoted) input.promoted = true;
  if (values.duration_hours && values.duration_hours !== '720') {
    input.duration_hours = Number(values.duration_hours) as 168 | 336 | 504 | 720;
  }
  if (values.scheduled_go_live_at) {
    input.scheduled_go_live_at = new Date(values.scheduled_go_live_at).toISOString();
  } else if (values.review && !(values.source === 'sku' && goesToReview(values.grader))) {
    // Scheduled ahead so nothing is live before the seller sees the card; none for a review.
    input.scheduled_go_live_at = new Date(now + REVIEW_HOLD_MS).toISOString();
  }
  if (values.use_card && values.source === 'sku') {
    const card = values.card;
    input.card = { title: card.title.trim() };
    if (card.player) input.card.player = card.player;
    if (card.year) input.card.year = Number(card.year);
    if (card.set) input.card.set = card.set;
    if (card.variant) input.card.variant = card.variant;
    if (card.grade) input.card.grade = card.grade;
    if (card.category) input.card.category = card.category;
  }
  return input;
}
