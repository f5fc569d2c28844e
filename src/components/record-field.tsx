import type { ReactNode } from 'react';
import { FieldValue } from './field-value';

/**
 * A record as the tolerant reader gives it: the dotted paths it could not read, and of those the
 * ones the server did not send at all.
 */
export interface MarkedRecord {
  unreadable?: readonly string[] | undefined;
  absent?: readonly string[] | undefined;
}

const covers = (paths: readonly string[] | undefined, path: string) =>
  paths?.some((p) => p === path || path.startsWith(`${p}.`)) ?? false;

/**
 * Whether the field at `path` (`total_price`, `svc_payout.platform_fee`) was sent in a form that
 * could not be read: named itself, or inside an object that could not be read as a whole. A field
 * the server did not send is not shown, not unreadable.
 */
export function unreadableAt(record: MarkedRecord, path: string): boolean {
  return covers(record.unreadable, path) && !covers(record.absent, path);
}

/**
 * A field of a tolerantly read record: its value, or "Could not be read" when the server sent it
 * in a form that could not be read, or "Not shown by the API" when it did not send it.
 */
export function RecordField<T>({
  record,
  path,
  value,
  notShown,
  children,
}: {
  record: MarkedRecord;
  path: string;
  value: T | undefined;
  notShown?: ReactNode;
  children: (value: T) => ReactNode;
}) {
  return (
    <FieldValue value={value} unreadable={unreadableAt(record, path)} notShown={notShown}>
      {children}
    </FieldValue>
  );
}
