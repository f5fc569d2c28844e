import { durationLabel } from '../../../../components/duration-options';
import type { ListingUpdateInput } from '../../../../client';
import { parseAmount } from '../../../../client/listing-rules';
import { formatCents } from '../../../../shared/money';
import {
  exclusionReason,
  FIELD_LABELS,
  rowErrors,
  toEditValues,
  type BulkRow,
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
  title: string;
  reason: string;
}

export interface InvalidCell {
  id: string;
  /** The listing's title, so a seller can find the row. */
  title: string;
  field: EditField;
  message: string;
}

export interface Plan {
  items: PlanItem[];
  excluded: Excluded[];
  invalid: InvalidCell[];
  /** Total requests the plan sends. */
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
const statusWord = (status: string) => (status === 'inactive' ? 'inactive' : status);

/** An amount in the API's form, or null for an empty cell. Assumes the cell is valid. */
function amountOrNull(text: string): string | null {
  if (text.trim() === '') return null;
  const parsed = parseAmount(text);
  return parsed.ok ? formatCents(parsed.value) : text;
}

function cents(text: string | null | undefined): bigint | null {
  if (text === null || text === undefined) return null;
  const parsed = parseAmount(text);
  return parsed.ok ? parsed.value : null;
}

/**
 * The minimal plan for one row: a PUT of the changed fields only, the spec's rules applied and
 * explained, nothing for an unchanged row. Assumes `edit` passed `rowErrors`.
 */
export function planRow(row: BulkRow, edit: EditValues): PlanItem | null {
  const original = toEditValues(row);
  const body: ListingUpdateInput = {};
  const changes: Change[] = [];
  const notes: string[] = [];
  const writes: PlannedWrite[] = [];

  /** An on/off setting: sent, and shown before → after, only when it changes. */
  const toggle = (
    field: 'acceptsOffers' | 'acceptsTrades' | 'autoRelist',
    key: 'accepts_offers' | 'accepts_trades' | 'auto_relist',
  ) => {
    const value = edit[field];
    // Blank (null) leaves the term unchanged, whether or not its value is shown.
    if (value === null || value === row[field]) return;
    body[key] = value;
    changes.push({
      field,
      label: FIELD_LABELS[field],
      before: yesNo(row[field]),
      after: yesNo(value),
    });
  };

  const title = edit.title;
  if (title !== original.title) {
    body.title = title;
    changes.push({ field: 'title', label: FIELD_LABELS.title, before: row.title, after: title });
  }
  if (edit.description !== original.description) {
    body.description = edit.description;
    changes.push({
      field: 'description',
      label: FIELD_LABELS.description,
      before: row.description ?? NOT_SHOWN,
      after: edit.description,
    });
  }

  const oldPrice = cents(row.price);
  const newPriceText = amountOrNull(edit.price) ?? row.price ?? '';
  const newPrice = cents(newPriceText);
  if (newPrice !== null && newPrice !== oldPrice) {
    body.price = newPriceText;
    changes.push({
      field: 'price',
      label: FIELD_LABELS.price,
      before: row.price ?? NOT_SHOWN,
      after: newPriceText,
    });
  }

  // Offers and the minimum offer, with the spec's clearing rules.
  const oldOffer = row.minimumOffer;
  const newOfferText = amountOrNull(edit.minimumOffer);
  // A minimum offer the API does not show: a blank cell leaves it, a filled one sets it.
  const offerEdited =
    oldOffer === undefined ? newOfferText !== null : cents(newOfferText) !== cents(oldOffer);
  toggle('acceptsOffers', 'accepts_offers');
  const offersOff =
    edit.acceptsOffers === false || (edit.acceptsOffers === null && row.acceptsOffers === false);
  if (offersOff) {
    if (row.acceptsOffers !== false && oldOffer !== null && oldOffer !== undefined) {
      notes.push(`${RULES.offersOff} (${oldOffer} → none)`);
      changes.push({
        field: 'minimumOffer',
        label: FIELD_LABELS.minimumOffer,
        before: oldOffer,
        after: 'none',
        implied: true,
      });
    } else if (offerEdited) {
      notes.push(RULES.offerIgnored);
    }
  } else if (offerEdited) {
    body.minimum_offer = newOfferText;
    changes.push({
      field: 'minimumOffer',
      label: FIELD_LABELS.minimumOffer,
      before: money(oldOffer),
      after: money(newOfferText),
    });
  } else if (
    oldOffer !== null &&
    oldOffer !== undefined &&
    newPrice !== null &&
    cents(oldOffer)! > newPrice
  ) {
    notes.push(`${RULES.priceBelowOffer} (${oldOffer} → none)`);
    changes.push({
      field: 'minimumOffer',
      label: FIELD_LABELS.minimumOffer,
      before: oldOffer,
      after: 'none',
      implied: true,
    });
  }

  toggle('acceptsTrades', 'accepts_trades');
  toggle('autoRelist', 'auto_relist');

  if (edit.promoted === true && row.promoted !== true) {
    body.promoted = true;
    notes.push(RULES.promotionFee);
    changes.push({
      field: 'promoted',
      label: FIELD_LABELS.promoted,
      before: row.promoted === undefined ? NOT_SHOWN : 'no',
      after: 'yes',
    });
  } else if (edit.promoted === false && row.promoted === true) {
    notes.push(RULES.promotionOneWay);
  }

  // Status and duration.
  const oldStatus = original.status;
  const duration =
    edit.durationHours === '' ? undefined : (Number(edit.durationHours) as 168 | 336 | 504 | 720);
  let deactivate = false;
  if (edit.status !== oldStatus) {
    changes.push({
      field: 'status',
      label: FIELD_LABELS.status,
      before: statusWord(oldStatus),
      after: statusWord(edit.status),
    });
    if (edit.status === 'inactive') {
      deactivate = true;
      notes.push(RULES.deactivate);
    } else if (edit.status === 'active') {
      body.status = 'active';
      if (duration !== undefined) body.duration_hours = duration;
      notes.push(
        duration !== undefined
          ? `${RULES.reactivate} (${durationLabel(duration)})`
          : RULES.reactivate,
      );
      if (duration !== undefined && original.durationHours !== edit.durationHours) {
        changes.push({
          field: 'durationHours',
          label: FIELD_LABELS.durationHours,
          before: hours(original.durationHours),
          after: hours(edit.durationHours),
        });
      }
    } else {
      body.status = 'draft';
    }
  }
  if (
    body.duration_hours === undefined &&
    duration !== undefined &&
    body.status !== 'active' &&
    edit.durationHours !== original.durationHours
  ) {
    body.duration_hours = duration;
    notes.push(RULES.extend);
    changes.push({
      field: 'durationHours',
      label: FIELD_LABELS.durationHours,
      before: hours(original.durationHours),
      after: hours(edit.durationHours),
    });
  }

  if (Object.keys(body).length > 0) writes.push({ method: 'PUT', body });
  if (deactivate) writes.push({ method: 'DELETE' });
  if (writes.length === 0 && notes.length === 0) return null;
  return { id: row.id, title: edit.title || row.title, changes, writes, notes };
}

/** Validation the diff needs beyond one row's schema: transitions the API refuses. */
function transitionError(row: BulkRow, edit: EditValues): InvalidCell | null {
  const from = toEditValues(row).status;
  if (from === 'inactive' && edit.status === 'draft') {
    return {
      id: row.id,
      title: edit.title || row.title,
      field: 'status',
      message: 'an inactive listing can only be reactivated',
    };
  }
  if (from === 'inactive' && edit.status === 'active' && row.canReactivate === false) {
    return {
      id: row.id,
      title: edit.title || row.title,
      field: 'status',
      message: 'this listing cannot be reactivated',
    };
  }
  return null;
}

/**
 * The whole plan, edited against original: sold rows left out with their reason, invalid cells
 * listed and their rows unplanned, so nothing invalid is sent.
 */
export function planBulkEdit(
  rows: readonly BulkRow[],
  edits: ReadonlyMap<string, EditValues> | readonly EditValues[],
): Plan {
  const byId =
    edits instanceof Map
      ? (edits as ReadonlyMap<string, EditValues>)
      : new Map((edits as readonly EditValues[]).map((e) => [e.id, e]));
  const items: PlanItem[] = [];
  const excluded: Excluded[] = [];
  const invalid: InvalidCell[] = [];
  const rules = new Set<string>();
  for (const row of rows) {
    const reason = exclusionReason(row);
    if (reason) {
      excluded.push({ id: row.id, title: row.title, reason });
      continue;
    }
    const edit = byId.get(row.id);
    if (!edit) continue;
    const errors = rowErrors(edit);
    const cells = Object.entries(errors).map(([field, message]) => ({
      id: row.id,
      title: edit.title || row.title,
      field: field as EditField,
      message,
    }));
    const transition = transitionError(row, edit);
    if (transition) cells.push(transition);
    if (cells.length > 0) {
      invalid.push(...cells);
      continue;
    }
    const item = planRow(row, edit);
    if (!item) continue;
    items.push(item);
    for (const note of item.notes) {
      const rule = Object.values(RULES).find((r) => note.startsWith(r));
      if (rule) rules.add(rule);
    }
  }
  return {
    items,
    excluded,
    invalid,
    writes: items.reduce((sum, item) => sum + item.writes.length, 0),
    rules: [...rules],
  };
}
