import type { ListingCreateInput, ListingUpdateInput, Product } from '../../client';
import type { EditListingForm, NewListingForm } from './listing-form-schemas';

/** The edit form's starting values, from the listing as it stands. */
export function editDefaults(product: Product): EditListingForm {
  return {
    price: product.variants[0]?.price ?? '',
    title: product.title,
    description: product.body_html,
    accepts_offers: product.svc_accepts_offers,
    minimum_offer: product.svc_minimum_offer ?? '',
    accepts_trades: product.svc_accepts_trades,
    auto_relist: product.svc_auto_relist,
    promoted: product.svc_promoted,
    duration_hours: '',
  };
}

/** Only the changed fields become the PUT body (omitted fields stay as they are). */
export function toUpdatePatch(
  values: EditListingForm,
  dirty: Partial<Record<keyof EditListingForm, boolean | undefined>>,
): ListingUpdateInput {
  const patch: ListingUpdateInput = {};
  if (dirty.price) patch.price = values.price.trim();
  if (dirty.title) patch.title = values.title.trim();
  if (dirty.description) patch.description = values.description;
  if (dirty.accepts_offers) patch.accepts_offers = values.accepts_offers;
  if (dirty.minimum_offer) {
    patch.minimum_offer = values.minimum_offer.trim() === '' ? null : values.minimum_offer.trim();
  }
  if (dirty.accepts_trades) patch.accepts_trades = values.accepts_trades;
  if (dirty.auto_relist) patch.auto_relist = values.auto_relist;
  if (dirty.promoted && values.promoted) patch.promoted = true;
  if (values.duration_hours !== '') {
    patch.duration_hours = Number(values.duration_hours) as 168 | 336 | 504 | 720;
  }
  return patch;
}

export function newListingDefaults(prefill: {
  inventoryItemId?: string | null;
  sku?: string | null;
}): NewListingForm {
  return {
    source: prefill.inventoryItemId ? 'inventory_item_id' : 'sku',
    sku: prefill.sku ?? '',
    inventory_item_id: prefill.inventoryItemId ?? '',
    price: '',
    grader: '',
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
    use_card: false,
    card: { title: '', player: '', year: '', set: '', variant: '', grade: '', category: '' },
  };
}

/** The POST body: only what the seller gave, so a cert plus a price stays a two-field request. */
export function toCreateInput(values: NewListingForm): ListingCreateInput {
  const input: ListingCreateInput = { price: values.price.trim() };
  if (values.source === 'sku') input.sku = values.sku.trim();
  else input.inventory_item_id = values.inventory_item_id.trim();
  if (values.grader && values.source === 'sku') input.grader = values.grader;
  if (values.title.trim()) input.title = values.title.trim();
  if (values.description) input.description = values.description;
  const images = values.images.map((image) => image.src.trim()).filter(Boolean);
  if (images.length > 0 && values.source === 'sku') input.images = images.map((src) => ({ src }));
  if (!values.accepts_offers) input.accepts_offers = false;
  if (values.accepts_offers && values.minimum_offer.trim()) {
    input.minimum_offer = values.minimum_offer.trim();
  }
  if (values.accepts_trades) input.accepts_trades = true;
  if (values.auto_relist) input.auto_relist = true;
  if (values.promoted) input.promoted = true;
  if (values.duration_hours && values.duration_hours !== '720') {
    input.duration_hours = Number(values.duration_hours) as 168 | 336 | 504 | 720;
  }
  if (values.scheduled_go_live_at) {
    input.scheduled_go_live_at = new Date(values.scheduled_go_live_at).toISOString();
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

/** What happened to a new listing, in the seller's words. */
export function describeOutcome(
  status: string,
  reason: string | null | undefined,
  scheduledAt: string | null | undefined,
): { kind: 'live' | 'scheduled' | 'review' | 'other'; text: string } {
  if (status === 'active') return { kind: 'live', text: 'Live now: buyers can see and buy it.' };
  if (reason === 'scheduled' || scheduledAt) {
    return {
      kind: 'scheduled',
      text: `Scheduled: it goes live at ${scheduledAt ? new Date(scheduledAt).toLocaleString() : 'the time you chose'}.`,
    };
  }
  if (reason === 'pending_review' || status !== 'archived') {
    return {
      kind: 'review',
      text: 'Pending review: the marketplace checks the card details before it goes live.',
    };
  }
  return { kind: 'other', text: `Created with status ${status}.` };
}
