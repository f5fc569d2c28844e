import { isRecord } from '../shared/is-record';
import { ownEntry } from '../shared/own-entry';
import { formatMoney, formatDateTime, humanize } from './format';
import { errorWords, marketplaceSays } from './error-words';
import type { ActivityEntry } from '../api/activity/activity-api';

/** The log's entries in a seller's words: formatted values, never raw JSON. */

type Value = string | number | boolean | null | undefined;

const MONEY_FIELDS = new Set(['price', 'minimum_offer']);
const FIELD_WORDS: Record<string, string> = {
  accepts_offers: 'offers',
  accepts_trades: 'trades',
  minimum_offer: 'minimum offer',
  duration_hours: 'window',
  auto_relist: 'auto-relist',
  scheduled_go_live_at: 'go-live',
  inventory_item_id: 'card',
  sku: 'cert',
  body_html: 'description',
  promoted: 'promotion',
};

/** A nested card's fields by the labels the listing form gives them (the others by their own). */
const CARD_WORDS: Record<string, string> = { title: 'card title', cert_number: 'cert' };

const STATUS_WORDS: Record<string, string> = {
  active: 'live',
  draft: 'not live (draft)',
  archived: 'ended',
};

const ACTION_WORDS: Record<string, string> = {
  create: 'Listed',
  update: 'Edited',
  deactivate: 'Deactivated',
  reactivate: 'Reactivated',
  status_change: 'Changed status',
  other: 'Other change',
};

export function actionWords(action: string): string {
  return ownEntry(ACTION_WORDS, action) ?? humanize(action);
}

/** A value the log kept as JSON text (nested objects, arrays), parsed; undefined if it is not. */
function parsedJson(value: Value): unknown {
  if (typeof value !== 'string' || !/^[[{]/.test(value.trim())) return undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    // Cut to the log's length limit: not readable as a whole.
    return null;
  }
}

function valueWords(field: string, value: Value): string {
  if (value === undefined) return 'not known';
  if (value === null) return MONEY_FIELDS.has(field) ? 'none' : 'nothing';
  if (MONEY_FIELDS.has(field)) return formatMoney(String(value));
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  if (field === 'duration_hours') return `${value} hours`;
  if (field === 'status') return ownEntry(STATUS_WORDS, String(value)) ?? humanize(String(value));
  if (field === 'scheduled_go_live_at' && typeof value === 'string') return formatDateTime(value);
  if (
    typeof value === 'string' &&
    value.trim() &&
    !Number.isNaN(Date.parse(value)) &&
    /T\d/.test(value)
  )
    return formatDateTime(value);
  return String(value);
}

/** "card: grade 9 → 9.5; cert → 12345678": each nested field by its label. */
function cardLines(before: unknown, after: unknown): string[] {
  const was = isRecord(before) ? before : {};
  const now = isRecord(after) ? after : {};
  const lines: string[] = [];
  for (const [key, value] of Object.entries(now)) {
    if (key === 'id' || key === 'url') continue;
    const name = ownEntry(CARD_WORDS, key) ?? key.replace(/_/g, ' ');
    const shown = (one: unknown) =>
      one === null || one === undefined ? 'nothing' : isRecord(one) ? 'changed' : String(one);
    const had = Object.hasOwn(was, key);
    if (had && JSON.stringify(was[key]) === JSON.stringify(value)) continue;
    lines.push(had ? `${name} ${shown(was[key])} → ${shown(value)}` : `${name} → ${shown(value)}`);
  }
  return lines;
}

/** "price $120.00 → $110.00", "title → New title", "photos changed": one line per change. */
export function changeLines(entry: ActivityEntry): string[] {
  return Object.entries(entry.changes).flatMap(([field, change]) => {
    if (field === 'images') return ['photos changed'];
    const before = 'before' in change ? change.before : undefined;
    const after = change.after;
    const nestedAfter = parsedJson(after);
    const nestedBefore = parsedJson(before);
    if (field === 'card' || field === 'svc_card') {
      const lines = nestedAfter ? cardLines(nestedBefore, nestedAfter) : [];
      return lines.length > 0 ? lines : ['card details changed'];
    }
    const name = ownEntry(FIELD_WORDS, field) ?? field.replace(/_/g, ' ');
    // Any other nested value: said changed, never shown as JSON.
    if (nestedAfter !== undefined || nestedBefore !== undefined) return [`${name} changed`];
    const afterWords = valueWords(field, after);
    return before !== undefined
      ? [`${name} ${valueWords(field, before)} → ${afterWords}`]
      : [`${name} → ${afterWords}`];
  });
}

/** "Done", or why the change was not made, in words (the marketplace's message where kept). */
export function outcomeWords(entry: ActivityEntry): string {
  if (entry.outcome === 'ok') return 'Done';
  if (entry.outcome === 'failed' && entry.status === 0)
    return 'Not made: the dashboard could not reach the marketplace';
  const why = entry.message ? marketplaceSays(entry.message) : errorWords(entry.code).what;
  return `Not made: ${why.replace(/\.$/, '')}`;
}

/** The person, or "This computer" for writes made with sign-in off. */
export function personWords(entry: ActivityEntry): string {
  return entry.actor ? `${entry.actor.name} (${entry.actor.role})` : 'This computer';
}
