import { durationLabel } from '../../../components/duration-options';
import { DeactivateReason, useDeactivateButton } from '../../../components/deactivate-action';
import { useState, type RefObject } from 'react';
import type { UseFormGetValues } from 'react-hook-form';
import type { BulkForm, BulkGridHandle, CellWrite } from './grid/grid-types';
import {
  adjustPrice,
  minimumOfferFromPercent,
  parsePercent,
  PRICE_ENDING_LABELS,
  PRICE_ENDINGS,
  withEnding,
  type Adjusted,
  type PriceEnding,
} from '../../../shared/price-math';
import { parseAmount, parsePrice } from '../../../client/listing-rules';
import { formatCents } from '../../../shared/money';
import { DURATIONS, type BooleanField, type DurationText, type EditValues } from './logic/rows';
import { countOf } from '../../../lib/format';

type PriceMode = 'set' | 'lower-percent' | 'raise-percent' | 'lower-amount' | 'raise-amount';

const PRICE_MODES: { value: PriceMode; label: string }[] = [
  { value: 'lower-percent', label: 'Lower by %' },
  { value: 'raise-percent', label: 'Raise by %' },
  { value: 'lower-amount', label: 'Lower by $' },
  { value: 'raise-amount', label: 'Raise by $' },
  { value: 'set', label: 'Set to $' },
];

export interface ActionSummary {
  title: string;
  lines: string[];
}

/**
 * Bulk actions over every row, each one undoable step: prices in exact cents, minimum offer as a
 * percentage, switches, status with a fresh window, deactivate and reactivate.
 */
export function BulkActionsPanel({
  grid,
  getValues,
  onSummary,
}: {
  grid: RefObject<BulkGridHandle | null>;
  getValues: UseFormGetValues<BulkForm>;
  onSummary(summary: ActionSummary): void;
}) {
  const [priceMode, setPriceMode] = useState<PriceMode>('lower-percent');
  const [priceValue, setPriceValue] = useState('');
  const [priceError, setPriceError] = useState<string | null>(null);
  const [ending, setEnding] = useState<PriceEnding>('cent');
  const [offerPercent, setOfferPercent] = useState('');
  const [offerError, setOfferError] = useState<string | null>(null);
  const [duration, setDuration] = useState<DurationText>('720');
  const deactivateButton = useDeactivateButton();

  const apply = (label: string, writes: CellWrite[], lines: string[] = []) => {
    const changed = grid.current?.apply(label, writes) ?? 0;
    onSummary({ title: `${label}: ${countOf(changed, 'cell')} changed`, lines });
  };

  const applyPrice = () => {
    const percent = priceMode.endsWith('percent');
    const parsed = percent
      ? parsePercent(priceValue, priceMode.startsWith('raise') ? 1000 : 99.99)
      : priceMode === 'set'
        ? parsePrice(priceValue)
        : parseAmount(priceValue);
    if (!parsed.ok) {
      setPriceError(parsed.message);
      return;
    }
    setPriceError(null);
    const rows = getValues('rows');
    const writes: CellWrite[] = [];
    const rounded: string[] = [];
    const outOfBounds: string[] = [];
    let skipped = 0;
    rows.forEach((row, index) => {
      const current = parseAmount(row.price);
      if (!current.ok) {
        skipped++;
        return;
      }
      const direction = priceMode.startsWith('raise') ? 'raise' : 'lower';
      const result: Adjusted = withEnding(
        priceMode === 'set'
          ? adjustPrice(current.value, { kind: 'set', cents: parsed.value })
          : percent
            ? adjustPrice(current.value, { kind: 'percent', direction, hundredths: parsed.value })
            : adjustPrice(current.value, { kind: 'amount', direction, cents: parsed.value }),
        ending,
      );
      if (result.rounded) rounded.push(`Row ${index + 1}: ${result.explanation}`);
      if (result.error) outOfBounds.push(`Row ${index + 1}: ${result.explanation} ${result.error}`);
      writes.push({
        index,
        field: 'price',
        value: result.error && result.cents === 0n ? row.price : formatCents(result.cents),
      });
    });
    const label =
      PRICE_MODES.find((m) => m.value === priceMode)!.label.replace(/ (by|to) .*/, '') +
      ` price ${priceMode === 'set' ? 'to' : 'by'} ${priceValue.trim()}${percent ? '%' : ''}`;
    const lines = [
      rounded.length > 0
        ? `${countOf(rounded.length, 'price')} rounded (${PRICE_ENDING_LABELS[ending].toLowerCase()}${ending === 'cent' ? ', half up' : ''}), for example: ${rounded.slice(0, 3).join(' · ')}`
        : 'No rounding was needed.',
    ];
    if (outOfBounds.length > 0) {
      lines.push(
        `${countOf(outOfBounds.length, 'price')} leave the 10 to 1,000,000 range and are marked in the grid: ${outOfBounds.slice(0, 3).join(' · ')}`,
      );
    }
    if (skipped > 0)
      lines.push(`${countOf(skipped, 'row')} with an invalid price were left as they are.`);
    apply(label, writes, lines);
  };

  const applyOffer = () => {
    const parsed = parsePercent(offerPercent, 100);
    if (!parsed.ok) {
      setOfferError(parsed.message);
      return;
    }
    setOfferError(null);
    const rows = getValues('rows');
    const writes: CellWrite[] = [];
    const rounded: string[] = [];
    let offersOff = 0;
    rows.forEach((row, index) => {
      const price = parseAmount(row.price);
      if (!price.ok) return;
      if (row.acceptsOffers === false) {
        offersOff++;
        return;
      }
      const offer = minimumOfferFromPercent(price.value, parsed.value);
      if (offer.rounded) rounded.push(`Row ${index + 1}: ${offer.explanation}`);
      writes.push({ index, field: 'minimumOffer', value: formatCents(offer.cents) });
    });
    const lines = [
      rounded.length > 0
        ? `${rounded.length} rounded half up to the cent, for example: ${rounded.slice(0, 3).join(' · ')}`
        : 'No rounding was needed.',
    ];
    if (offersOff > 0)
      lines.push(`${countOf(offersOff, 'row')} with offers off were left as they are.`);
    apply(`Minimum offer ${offerPercent.trim()}% of price`, writes, lines);
  };

  const setAll = (label: string, patch: (row: EditValues) => Partial<EditValues> | null) => {
    const writes: CellWrite[] = [];
    getValues('rows').forEach((row, index) => {
      const values = patch(row);
      if (!values) return;
      for (const [field, value] of Object.entries(values)) {
        writes.push({
          index,
          field: field as CellWrite['field'],
          value: value as CellWrite['value'],
        });
      }
    });
    apply(label, writes);
  };

  const toggle = (field: BooleanField, label: string, on: boolean) =>
    setAll(`${label} ${on ? 'on' : 'off'}`, () => ({ [field]: on }));

  return (
    <section className="bulk-actions panel" aria-labelledby="bulk-actions-heading">
      <h2 id="bulk-actions-heading">Bulk actions</h2>
      <p className="muted">Each action changes every row in the grid and can be undone.</p>
      <fieldset>
        <legend>Price</legend>
        <div className="field">
          <label htmlFor="bulk-price-mode">Price change</label>
          <select
            id="bulk-price-mode"
            value={priceMode}
            onChange={(event) => setPriceMode(event.target.value as PriceMode)}
          >
            {PRICE_MODES.map((mode) => (
              <option key={mode.value} value={mode.value}>
                {mode.label}
              </option>
            ))}
          </select>
        </div>
        <div className={`field${priceError ? ' field-invalid' : ''}`}>
          <label htmlFor="bulk-price-value">
            {priceMode.endsWith('percent') ? 'Percent (%)' : 'Amount (USD)'}
          </label>
          <input
            id="bulk-price-value"
            inputMode="decimal"
            value={priceValue}
            aria-invalid={priceError ? true : undefined}
            aria-describedby={priceError ? 'bulk-price-error' : undefined}
            onChange={(event) => setPriceValue(event.target.value)}
          />
          {priceError && (
            <p className="field-error" id="bulk-price-error">
              {priceError}
            </p>
          )}
        </div>
        <div className="field">
          <label htmlFor="bulk-price-ending">Round the new prices</label>
          <select
            id="bulk-price-ending"
            value={ending}
            onChange={(event) => setEnding(event.target.value as PriceEnding)}
          >
            {PRICE_ENDINGS.map((value) => (
              <option key={value} value={value}>
                {PRICE_ENDING_LABELS[value]}
              </option>
            ))}
          </select>
        </div>
        <button type="button" onClick={applyPrice}>
          Apply price change
        </button>
      </fieldset>
      <fieldset>
        <legend>Minimum offer</legend>
        <div className={`field${offerError ? ' field-invalid' : ''}`}>
          <label htmlFor="bulk-offer-percent">Minimum offer as % of price</label>
          <input
            id="bulk-offer-percent"
            inputMode="decimal"
            value={offerPercent}
            aria-invalid={offerError ? true : undefined}
            aria-describedby={offerError ? 'bulk-offer-error' : undefined}
            onChange={(event) => setOfferPercent(event.target.value)}
          />
          {offerError && (
            <p className="field-error" id="bulk-offer-error">
              {offerError}
            </p>
          )}
        </div>
        <button type="button" onClick={applyOffer}>
          Set minimum offers
        </button>
      </fieldset>
      <fieldset>
        <legend>Switches</legend>
        <div className="button-row">
          <button type="button" onClick={() => toggle('acceptsOffers', 'Offers', true)}>
            Offers on
          </button>
          <button type="button" onClick={() => toggle('acceptsOffers', 'Offers', false)}>
            Offers off
          </button>
          <button type="button" onClick={() => toggle('acceptsTrades', 'Trades', true)}>
            Trades on
          </button>
          <button type="button" onClick={() => toggle('acceptsTrades', 'Trades', false)}>
            Trades off
          </button>
          <button type="button" onClick={() => toggle('autoRelist', 'Auto-relist', true)}>
            Auto-relist on
          </button>
          <button type="button" onClick={() => toggle('autoRelist', 'Auto-relist', false)}>
            Auto-relist off
          </button>
        </div>
      </fieldset>
      <fieldset>
        <legend>Status</legend>
        <div className="field">
          <label htmlFor="bulk-duration">Fresh window</label>
          <select
            id="bulk-duration"
            value={duration}
            onChange={(event) => setDuration(event.target.value as DurationText)}
          >
            {DURATIONS.map((hours) => (
              <option key={hours} value={hours}>
                {durationLabel(Number(hours))}
              </option>
            ))}
          </select>
        </div>
        <div className="button-row">
          <button
            type="button"
            onClick={() =>
              setAll('Draft', (row) => (row.status === 'active' ? { status: 'draft' } : null))
            }
          >
            Make drafts
          </button>
          <button
            type="button"
            onClick={() =>
              setAll('Make active', (row) =>
                row.status === 'draft' ? { status: 'active', durationHours: duration } : null,
              )
            }
          >
            Make active
          </button>
          <button
            type="button"
            {...deactivateButton}
            onClick={() =>
              setAll('Deactivate', (row) =>
                row.status !== 'inactive' ? { status: 'inactive' } : null,
              )
            }
          >
            Deactivate
          </button>
          <button
            type="button"
            onClick={() =>
              setAll('Reactivate', (row) =>
                row.status === 'inactive' ? { status: 'active', durationHours: duration } : null,
              )
            }
          >
            Reactivate
          </button>
          <DeactivateReason />
        </div>
      </fieldset>
    </section>
  );
}
