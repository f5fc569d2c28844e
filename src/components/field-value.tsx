import type { ReactNode } from 'react';

/** A value as known: the value, a mark when it could not be read, or "not shown"; never a guess. */
export function FieldValue<T>({
  value,
  unreadable = false,
  notShown = 'Not shown by the API',
  children,
}: {
  value: T | undefined;
  /** The server sent the field, but in a form that could not be read. */
  unreadable?: boolean;
  /** What to say when no view gives the value. */
  notShown?: ReactNode;
  children: (value: T) => ReactNode;
}) {
  if (value !== undefined) return <>{children(value)}</>;
  if (unreadable) {
    return (
      <span
        className="value-unreadable"
        title="The server sent this field in a form that could not be read"
      >
        Could not be read
      </span>
    );
  }
  return <span className="value-not-shown">{notShown}</span>;
}
