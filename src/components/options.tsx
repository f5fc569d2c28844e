import type { ReactNode } from 'react';
import { PRICE_ENDING_LABELS, type PriceEnding } from '../shared/price-math';

/** A select's `<option>`s from [value, words] pairs. */
export function Options({ of }: { of: readonly (readonly [string, ReactNode])[] }) {
  return of.map(([value, words]) => (
    <option key={value} value={value}>
      {words}
    </option>
  ));
}

/** A labelled select that applies each change at once (a filter, a chart's choice). */
export function SelectField({
  id,
  label,
  value,
  options,
  onChange,
  any,
  className = 'field',
}: {
  id: string;
  label: string;
  value: string;
  options: readonly (readonly [string, ReactNode])[];
  onChange(value: string): void;
  /** The words of a first choice, value `''`, that clears the filter. */
  any?: string;
  className?: string;
}) {
  return (
    <div className={className}>
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        {any !== undefined && <option value="">{any}</option>}
        <Options of={options} />
      </select>
    </div>
  );
}

/** The one select of a new price's ending (the bulk editor's and the counter's). */
export function PriceEndingSelect({
  value,
  onChange,
  ...control
}: {
  id?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string | undefined;
  value: PriceEnding;
  onChange(ending: PriceEnding): void;
}) {
  return (
    <select
      {...control}
      value={value}
      onChange={(event) => onChange(event.target.value as PriceEnding)}
    >
      <Options of={Object.entries(PRICE_ENDING_LABELS)} />
    </select>
  );
}
