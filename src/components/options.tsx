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
