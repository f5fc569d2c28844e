import type { ReactNode } from 'react';
import { Fact } from './fact';

/** A value as known: the value, a mark when it could not be read, or "not shown"; never a guess. */
export function FieldValue<T>({
  value,
  unreadable = false,
  notShown = 'Not shown by the API',
  label,
  children,
}: {
  value: T | undefined;
  /** The server sent the field, but in a form that could not be read. */
  unreadable?: boolean;
  /** What to say when no view gives the value. */
  notShown?: ReactNode;
  /** Said as a fact of a `<dl>` under this term. */
  label?: ReactNode;
  children: (value: T) => ReactNode;
}) {
  const shown =
    value !== undefined ? (
      children(value)
    ) : unreadable ? (
      <span
        className="value-unreadable"
        title="The server sent this field in a form that could not be read"
      >
        Could not be read
      </span>
    ) : (
      <span className="value-not-shown">{notShown}</span>
    );
  return label === undefined ? <>{shown}</> : <Fact label={label}>{shown}</Fact>;
}
