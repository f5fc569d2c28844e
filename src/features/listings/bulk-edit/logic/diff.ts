import { durationLabel } from '../../../../components/duration-options';
import type { ListingUpdateInput } from '../../../../client';
import { parseAmount } from '../../../../client/listing-rules';
import { formatCents } from '../../../../shared/money';
import type { CatalogueRow } from '../../catalogue/catalogue-row';
import {
  exclusionReason,
  FIELD_LABELS,
  rowErrors,
  toEditValues,
  type BooleanField,
  type EditField,
  type EditValues,
} from './rows';

/** One request of a plan: a PUT with only the fields that change, or a DELETE. */
export type PlannedWrite =
  { method: 'PUT'; body: ListingUpdateInput } | { method: 'DELETE'; body?: undefined };

/** One visible change of a row: what the seller will see before → after. */
export interface Change {
  field: EditField | 'promoted';
  label: string;
  before: string;
  after: string;
  /** True for a change the API makes by itself (a minimum offer cleared by a rule). */
  implied?: boolean;
}

export interface PlanItem {
  id: string;
  title: string;
  changes: Change[];
  /** In order: a PUT of the changed fields, then a DELETE when the row is deactivated. */
  writes: PlannedWrite[];
  /** The spec's rules as they apply to this row, in words. */
  notes: string[];
}

export interface Excluded {
  id: string;
  /** Undefined when the title could not be read (the listing is then left out). */
  title: string | undefined;
  reason: string;
}

export interface InvalidCell {
  id: string;
  title: string | undefined;
  field: EditField;
  message: string;
}

export interface Plan {
  items: PlanItem[];
  excluded: Excluded[];
  invalid: InvalidCell[];
  writes: number;
  /** The distinct rules that apply somewhere in the plan, for the preview's summary. */
  rules: string[];
}

export const RULES = {
  priceBelowOffer:
    'A price below the minimum offer clears the minimum offer (the API does it with the price).',
  offersOff: 'Turning offers off also clears the minimum offer.',
  offerIgnored: 'A minimum offer is ignored while offers are off, so it is not sent.',
  promotionOneWay: 'Promotion is one-way: a promoted listing stays promoted.',
  promotionFee: 'Promoting is one-way and adds a 3% seller fee on sale.',
  reactivate: 'Reactivating starts a fresh window of the duration shown.',
  deactivate: 'Deactivating takes the listing off the marketplace; it can be reactivated later.',
  extend: 'A new duration on a listing that stays as it is extends its current window.',
} as const;

/** What the preview says for a value the API does not show. */
export const NOT_SHOWN = 'not shown';
const yesNo = (value: boolean | undefined) =>
  value === undefined ? NOT_SHOWN : value ? 'on' : 'off';
const money = (value: string | null | undefined) =>
  value === undefined ? NOT_SHOWN : value === null || value === '' ? 'none' : value;
const hours = (value: string) => (value === '' ? NOT_SHOWN : durationLabel(Number(value)));

/** An amount in the API's form, or null for an empty cell. Assumes the cell is valid. */
function amountOrNull(text: string): string | null {
  const value = text.trim() === '' ? undefined : cents(text);
  return value === undefined ? null : value === null ? text : formatCents(value);
}

function cents(text: string | null | undefined): bigint | null {
  const parsed = text == null ? null : parseAmount(text);
  return parsed?.ok ? parsed.value : null;
}

/** The minimal plan for one row, the spec's rules applied and said; null when nothing changes. */
export function planRow(row: CatalogueRow, edit: EditValues): PlanItem | null {
  const original = toEditValues(row);
  const body: ListingUpdateInput = {};
  const changes: Change[] = [];
  const notes: string[] = [];
  const writes: PlannedWrite[] = [];
  const change = (field: Change['field'], before: string, after: string, implied?: true) =>
    changes.push({ field, label: FIELD_LABELS[field], before, after, ...(implied && { implied }) });
  /** The API clears the minimum offer by itself: said as a rule and an implied change. */
  const offerCleared = (rule: string, offer: string) => {
    notes.push(`${rule} (${offer} → none)`);
    change('minimumOffer', offer, 'none', true);
  };
  const toggle = (
    field: BooleanField,
    key: 'accepts_offers' | 'accepts_trades' | 'auto_relist',
    was: boolean | undefined,
  ) => {
    const value = edit[field];
    // Blank (null) leaves the term unchanged, whether or not its value is shown.
    if (value === null || value === was) return;
    body[key] = value;
    change(field, yesNo(was), yesNo(value));
  };

  if (edit.title !== original.title) {
    body.title = edit.title;
    change('title', original.title, edit.title);
  }
  if (edit.description !== original.description) {
    body.description = edit.description;
    change('description', row.description ?? NOT_SHOWN, edit.description);
  }

  const newPriceText = amountOrNull(edit.price) ?? row.priceText ?? '';
  const newPrice = cents(newPriceText);
  if (newPrice !== null && newPrice !== cents(row.priceText)) {
    body.price = newPriceText;
    change('price', row.priceText ?? NOT_SHOWN, newPriceText);
  }

  const oldOffer = row.minimumOffer;
  const newOfferText = amountOrNull(edit.minimumOffer);
  // A minimum offer the API does not show: a blank cell leaves it, a filled one sets it.
  const offerEdited =
    oldOffer === undefined ? newOfferText !== null : cents(newOfferText) !== cents(oldOffer);
  toggle('acceptsOffers', 'accepts_offers', row.offers);
  const offersOff =
    edit.acceptsOffers === false || (edit.acceptsOffers === null && row.offers === false);
  if (offersOff) {
    if (row.offers !== false && oldOffer != null) offerCleared(RULES.offersOff, oldOffer);
    else if (offerEdited) notes.push(RULES.offerIgnored);
  } else if (offerEdited) {
    body.minimum_offer = newOfferText;
    change('minimumOffer', money(oldOffer), money(newOfferText));
  } else if (oldOffer != null && newPrice !== null && cents(oldOffer)! > newPrice) {
    offerCleared(RULES.priceBelowOffer, oldOffer);
  }

  toggle('acceptsTrades', 'accepts_trades', row.trades);
  toggle('autoRelist', 'auto_relist', row.autoRelist);

  if (edit.promoted === true && row.promoted !== true) {
    body.promoted = true;
    notes.push(RULES.promotionFee);
    change('promoted', row.promoted === undefined ? NOT_SHOWN : 'no', 'yes');
  } else if (edit.promoted === false && row.promoted === true) {
    notes.push(RULES.promotionOneWay);
  }

  const duration =
    edit.durationHours === ''
      ? undefined
      : (Number(edit.durationHours) as NonNullable<ListingUpdateInput['duration_hours']>);
  const durationChanged = edit.durationHours !== original.durationHours;
  const changeDuration = () =>
    change('durationHours', hours(original.durationHours), hours(edit.durationHours));
  if (edit.status !== original.status) {
    change('status', original.status, edit.status);
    if (edit.status === 'inactive') notes.push(RULES.deactivate);
    else if (edit.status === 'draft') body.status = 'draft';
    else {
      body.status = 'active';
      if (duration === undefined) notes.push(RULES.reactivate);
      else {
        body.duration_hours = duration;
        notes.push(`${RULES.reactivate} (${durationLabel(duration)})`);
        if (durationChanged) changeDuration();
      }
    }
  }
  if (body.status !== 'active' && duration !== undefined && durationChanged) {
    body.duration_hours = duration;
    notes.push(RULES.extend);
    changeDuration();
  }

  if (Object.keys(body).length > 0) writes.push({ method: 'PUT', body });
  if (edit.status === 'inactive' && original.status !== 'inactive')
    writes.push({ method: 'DELETE' });
  if (writes.length === 0 && notes.length === 0) return null;
  return { id: row.id, title: edit.title || original.title, changes, writes, notes };
}

/** A status move the API refuses, named on the status cell. */
function transitionError(row: CatalogueRow, edit: EditValues): InvalidCell | null {
  if (toEditValues(row).status !== 'inactive') return null;
  const message =
    edit.status === 'draft'
      ? 'an inactive listing can only be reactivated'
      : edit.status === 'active' && row.canReactivate === false
        ? 'this listing cannot be reactivated'
        : null;
  return message && { id: row.id, title: edit.title || row.title, field: 'status', message };
}

/** The whole plan: sold rows left out with their reason, rows with an invalid cell listed, unplanned. */
export function planBulkEdit(rows: readonly CatalogueRow[], edits: readonly EditValues[]): Plan {
  const byId = new Map(edits.map((edit) => [edit.id, edit]));
  const plan: Plan = { items: [], excluded: [], invalid: [], writes: 0, rules: [] };
  for (const row of rows) {
    const reason = exclusionReason(row);
    const edit = byId.get(row.id);
    if (reason) plan.excluded.push({ id: row.id, title: row.title, reason });
    if (reason || !edit) continue;
    const title = edit.title || row.title;
    const cells: InvalidCell[] = Object.entries(rowErrors(edit)).map(([field, message]) => ({
      id: row.id,
      title,
      field: field as EditField,
      message,
    }));
    const transition = transitionError(row, edit);
    if (transition) cells.push(transition);
    const item = cells.length === 0 && planRow(row, edit);
    plan.invalid.push(...cells);
    if (!item) continue;
    plan.items.push(item);
    plan.writes += item.writes.length;
    for (const note of item.notes) {
      const rule = Object.values(RULES).find((r) => note.startsWith(r));
      if (rule && !plan.rules.includes(rule)) plan.rules.push(rule);
    }
  }
  return plan;
}
