import type { ReactNode } from 'react';
import { FieldValue } from './field-value';

/** A record as the tolerant reader gives it: the dotted paths it could not read. */
export interface MarkedRecord {
  unreadable?: readonly string[] | undefined;
}

/**
 * Whether the field at `path` (`total_price`, `svc_payout.platform_fee`) was sent in a form that
 * could not be read: named itself, or inside an object that could not be read as a whole.
 */
export function unreadableAt(record: MarkedRecord, path: string): boolean {
  const named = record.unreadable;
  if (!named || named.length === 0) return false;
  return named.some((p) => p === path || path.startsWith(`${p}.`));
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
