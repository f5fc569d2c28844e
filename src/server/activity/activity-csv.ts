import { toCsv } from '../../shared/delimited';
import type { ActivityEntry } from './activity-store';

/** The activity log as a spreadsheet reads it: one row per changed field, formulas neutralised. */

const HEADER = [
  'time',
  'person',
  'action',
  'listing',
  'field',
  'before',
  'after',
  'outcome',
  'request id',
  'bulk job',
];

const text = (value: unknown): string =>
  value === undefined || value === null ? '' : String(value);

export function activityCsv(entries: readonly ActivityEntry[]): string {
  const rows: string[][] = [HEADER];
  for (const entry of entries) {
    const common = (field: string, before: unknown, after: unknown) => [
      entry.at,
      entry.actor?.name ?? 'This computer',
      entry.action,
      text(entry.listingId),
      field,
      text(before),
      text(after),
      entry.outcome === 'ok'
        ? 'ok'
        : `${entry.outcome} ${entry.status}${entry.code ? ` ${entry.code}` : ''}`,
      text(entry.requestId),
      text(entry.bulkJobId),
    ];
    const fields = Object.entries(entry.changes);
    if (fields.length === 0) rows.push(common('', '', ''));
    for (const [field, change] of fields) rows.push(common(field, change.before, change.after));
  }
  return toCsv(rows);
}
