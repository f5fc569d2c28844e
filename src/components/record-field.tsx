import type { ReactNode } from 'react';
import { FieldValue } from './field-value';

/** A tolerantly read record: the paths it could not read, and of those the ones never sent. */
export interface MarkedRecord {
  unreadable?: readonly string[] | undefined;
  absent?: readonly string[] | undefined;
}

const covers = (paths: readonly string[] | undefined, path: string) =>
  paths?.some((p) => p === path || path.startsWith(`${p}.`)) ?? false;

/** Whether the field at `path` (or its parent) came unreadable; a field never sent is not shown. */
export function unreadableAt(record: MarkedRecord, path: string): boolean {
  return covers(record.unreadable, path) && !covers(record.absent, path);
}

/** A record's top-level field as `RecordField`'s record, path and value. */
export const fieldOf = <R extends MarkedRecord, K extends keyof R & string>(
  record: R,
  path: K,
) => ({
  record,
  path,
  value: record[path],
});

/** A tolerantly read field: its value, "Could not be read", or "Not shown by the API". */
export function RecordField<T>({
  record,
  path,
  value,
  notShown,
  label,
  children,
}: {
  record: MarkedRecord;
  path: string;
  value: T | undefined;
  notShown?: ReactNode;
  /** Said as a fact of a `<dl>` under this term. */
  label?: ReactNode;
  children: (value: T) => ReactNode;
}) {
  return (
    <FieldValue
      value={value}
      unreadable={unreadableAt(record, path)}
      notShown={notShown}
      label={label}
    >
      {children}
    </FieldValue>
  );
}
