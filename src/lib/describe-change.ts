import { formatMoney, humanize } from './format';
import type { ActivityEntry } from '../api/activity/activity-api';

/** The log's entries in a seller's words. */

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
  return ACTION_WORDS[action] ?? humanize(action);
}

function valueWords(field: string, value: Value): string {
  if (value === undefined) return '?';
  if (value === null) return MONEY_FIELDS.has(field) ? 'none' : '—';
  if (MONEY_FIELDS.has(field)) return formatMoney(String(value));
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  if (field === 'duration_hours') return `${value} h`;
  if (field === 'status') return humanize(String(value));
  return String(value);
}

/** "price $120.00 → $110.00", "title → New title": one line per field. */
export function changeLines(entry: ActivityEntry): string[] {
  return Object.entries(entry.changes).map(([field, change]) => {
    const name = FIELD_WORDS[field] ?? humanize(field);
    const after = valueWords(field, change.after);
    return 'before' in change && change.before !== undefined
      ? `${name} ${valueWords(field, change.before)} → ${after}`
      : `${name} → ${after}`;
  });
}

/** "Done", "Refused (403 role forbidden)", "Failed: the API could not be reached". */
export function outcomeWords(entry: ActivityEntry): string {
  if (entry.outcome === 'ok') return 'Done';
  if (entry.outcome === 'failed' && entry.status === 0)
    return 'Failed: the API could not be reached';
  const detail = `${entry.status}${entry.code ? ` ${humanize(entry.code)}` : ''}`;
  return `${entry.outcome === 'refused' ? 'Refused' : 'Failed'} (${detail})`;
}

/** The person, or "This computer" for writes made with sign-in off. */
export function personWords(entry: ActivityEntry): string {
  return entry.actor ? `${entry.actor.name} (${entry.actor.role})` : 'This computer';
}
