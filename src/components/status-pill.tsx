import { humanize } from '../lib/format';

/** A listing, order or stage status as a labelled pill (its colour comes from the value). */
export function StatusPill({ value }: { value: string | null | undefined }) {
  const text = humanize(value);
  return <span className={`pill pill-${(value ?? 'none').replace(/[^a-z_]/g, '')}`}>{text}</span>;
}
