import { DurationOptions } from '../../../components/duration-options';
import { Options, PriceEndingSelect } from '../../../components/options';
import { DeactivateReason, useDeactivateButton } from '../../../components/deactivate-action';
import { useState, type RefObject } from 'react';
import type { UseFormGetValues } from 'react-hook-form';
import type { BulkForm, BulkGridHandle, CellWrite } from './grid/grid-types';
import {
  adjustPrice,
  minimumOfferFromPercent,
  parsePercent,
  PRICE_ENDING_LABELS,
  withEnding,
  type Adjusted,
  type PriceEnding,
} from '../../../shared/price-math';
import { parseAmount, parsePrice } from '../../../client/listing-rules';
import { formatCents } from '../../../shared/money';
import {
  type BooleanField,
  type DurationText,
  type EditStatus,
  type EditValues,
} from './logic/rows';
import { FormField } from '../../../components/form-field';
import { countOf } from '../../../lib/format';

type PriceMode = 'set' | 'lower-percent' | 'raise-percent' | 'lower-amount' | 'raise-amount';

const PRICE_MODES: Record<PriceMode, string> = {
  'lower-percent': 'Lower by %',
  'raise-percent': 'Raise by %',
  'lower-amount': 'Lower by $',
  'raise-amount': 'Raise by $',
  set: 'Set to $',
};

const SWITCHES: [BooleanField, string][] = [
  ['acceptsOffers', 'Offers'],
  ['acceptsTrades', 'Trades'],
  ['autoRelist', 'Auto-relist'],
];

/** Bulk actions over every row, each one undoable step; prices in exact cents. */
export function BulkActionsPanel({
  grid,
  getValues,
  onAnnounce,
}: {
  grid: RefObject<BulkGridHandle | null>;
  getValues: UseFormGetValues<BulkForm>;
  onAnnounce(message: string): void;
}) {
  const [summary, setSummary] = useState<{ title: string; lines: string[] } | null>(null);
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
    const title = `${label}: ${countOf(changed, 'cell')} changed`;
    setSummary({ title, lines });
    onAnnounce(title);
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
    const direction = priceMode.startsWith('raise') ? 'raise' : 'lower';
    const adjustment: Parameters<typeof adjustPrice>[1] =
      priceMode === 'set'
        ? { kind: 'set', cents: parsed.value }
        : percent
          ? { kind: 'percent', direction, hundredths: parsed.value }
          : { kind: 'amount', direction, cents: parsed.value };
    const writes: CellWrite[] = [];
    const rounded: string[] = [];
    const outOfBounds: string[] = [];
    let skipped = 0;
    getValues('rows').forEach((row, index) => {
      const current = parseAmount(row.price);
      if (!current.ok) {
        skipped++;
        return;
      }
      const result: Adjusted = withEnding(adjustPrice(current.value, adjustment), ending);
      if (result.rounded) rounded.push(`Row ${index + 1}: ${result.explanation}`);
      if (result.error) outOfBounds.push(`Row ${index + 1}: ${result.explanation} ${result.error}`);
      writes.push({
        index,
        field: 'price',
        value: result.error && result.cents === 0n ? row.price : formatCents(result.cents),
      });
    });
    const label =
      PRICE_MODES[priceMode].replace(/ (by|to) .*/, '') +
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
    const writes: CellWrite[] = [];
    const rounded: string[] = [];
    let offersOff = 0;
    getValues('rows').forEach((row, index) => {
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

  const setAll = (label: string, patch: (row: EditValues) => Partial<EditValues> | null) =>
    apply(
      label,
      getValues('rows').flatMap((row, index) =>
        Object.entries(patch(row) ?? {}).map(([field, value]) => ({
          index,
          field: field as CellWrite['field'],
          value: value as CellWrite['value'],
        })),
      ),
    );

  /** Every row whose status is `from` (or any but `to`) moves to `to`; active with a fresh window. */
  const setStatus = (label: string, to: EditStatus, from?: EditStatus) =>
    setAll(label, (row) =>
      (from ? row.status === from : row.status !== to)
        ? { status: to, ...(to === 'active' && { durationHours: duration }) }
        : null,
    );

  return (
    <>
      <section className="bulk-actions panel" aria-labelledby="bulk-actions-heading">
        <h2 id="bulk-actions-heading">Bulk actions</h2>
        <p className="muted">Each action changes every row in the grid and can be undone.</p>
        <fieldset>
          <legend>Price</legend>
          <FormField label="Price change">
            {(control) => (
              <select
                {...control}
                value={priceMode}
                onChange={(event) => setPriceMode(event.target.value as PriceMode)}
              >
                <Options of={Object.entries(PRICE_MODES)} />
              </select>
            )}
          </FormField>
          <FormField
            label={priceMode.endsWith('percent') ? 'Percent (%)' : 'Amount (USD)'}
            error={priceError ?? undefined}
          >
            {(control) => (
              <input
                {...control}
                inputMode="decimal"
                value={priceValue}
                onChange={(event) => setPriceValue(event.target.value)}
              />
            )}
          </FormField>
          <FormField label="Round the new prices">
            {(control) => <PriceEndingSelect {...control} value={ending} onChange={setEnding} />}
          </FormField>
          <button type="button" onClick={applyPrice}>
            Apply price change
          </button>
        </fieldset>
        <fieldset>
          <legend>Minimum offer</legend>
          <FormField label="Minimum offer as % of price" error={offerError ?? undefined}>
            {(control) => (
              <input
                {...control}
                inputMode="decimal"
                value={offerPercent}
                onChange={(event) => setOfferPercent(event.target.value)}
              />
            )}
          </FormField>
          <button type="button" onClick={applyOffer}>
            Set minimum offers
          </button>
        </fieldset>
        <fieldset>
          <legend>Switches</legend>
          <div className="button-row">
            {SWITCHES.flatMap(([field, label]) =>
              [true, false].map((on) => (
                <button
                  key={`${field}-${on}`}
                  type="button"
                  onClick={() => setAll(`${label} ${on ? 'on' : 'off'}`, () => ({ [field]: on }))}
                >
                  {label} {on ? 'on' : 'off'}
                </button>
              )),
            )}
          </div>
        </fieldset>
        <fieldset>
          <legend>Status</legend>
          <FormField label="Fresh window">
            {(control) => (
              <select
                {...control}
                value={duration}
                onChange={(event) => setDuration(event.target.value as DurationText)}
              >
                <DurationOptions />
              </select>
            )}
          </FormField>
          <div className="button-row">
            <button type="button" onClick={() => setStatus('Draft', 'draft', 'active')}>
              Make drafts
            </button>
            <button type="button" onClick={() => setStatus('Make active', 'active', 'draft')}>
              Make active
            </button>
            <button
              type="button"
              {...deactivateButton}
              onClick={() => setStatus('Deactivate', 'inactive')}
            >
              Deactivate
            </button>
            <button type="button" onClick={() => setStatus('Reactivate', 'active', 'inactive')}>
              Reactivate
            </button>
            <DeactivateReason />
          </div>
        </fieldset>
      </section>
      {summary && (
        <div className="panel bulk-summary" role="status" aria-label="Last action">
          <p>
            <strong>{summary.title}</strong>
          </p>
          {summary.lines.map((line) => (
            <p key={line}>{line}</p>
          ))}
        </div>
      )}
    </>
  );
}
