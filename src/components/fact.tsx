import type { ReactNode } from 'react';

/** One fact of a `<dl>`: its term and value; with `note` or `box`, a stat's `<div>`, its note under. */
export function Fact({
  label,
  children,
  note,
  figure,
  box,
}: {
  label: ReactNode;
  children: ReactNode;
  /** A muted line under the value. */
  note?: ReactNode;
  /** The value in figures' type. */
  figure?: boolean;
  /** Grouped in a `<div>` (of this class, when a string). */
  box?: boolean | string;
}) {
  const fact = (
    <>
      <dt>{label}</dt>
      <dd className={figure ? 'figure' : undefined}>{children}</dd>
      {note !== undefined && <dd className="muted">{note}</dd>}
    </>
  );
  if (!box && note === undefined) return fact;
  return <div className={typeof box === 'string' ? box : undefined}>{fact}</div>;
}
