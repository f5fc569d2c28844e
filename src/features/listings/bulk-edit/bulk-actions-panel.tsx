import { DurationOptions } from '../../../components/duration-options';
import { Options, PriceEndingSelect } from '../../../components/options';
import { DeactivateReason, useDeactivateButton } from '../../../components/deactivate-action';
import { useState, type RefObject } from 'react';
import { useForm, type UseFormGetValues } from 'react-hook-form';
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
  BOOLEAN_FIELDS,
  FIELD_LABELS,
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

/** The actions' own fields (a react-hook-form form apart from the grid's), as first shown. */
const DEFAULTS = {
  priceMode: 'lower-percent' as PriceMode,
  priceValue: '',
  ending: 'cent' as PriceEnding,
  offerPercent: '',
  duration: '720' as DurationText,
};

/** Up to three of the rows a step rounded or refused, for the summary. */
const examples = (lines: readonly string[]) => lines.slice(0, 3).join(' · ');

/** What rounding a step did, said with `count` ("3 prices rounded …"), or that none was needed. */
const roundingLine = (rounded: readonly string[], count: string) =>
  rounded.length > 0 ? `${count}, for example: ${examples(rounded)}` : 'No rounding was needed.';

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
  const actions = useForm({ defaultValues: DEFAULTS });
  const { register, setError, clearErrors } = actions;
  const { errors } = actions.formState;
  const priceMode = actions.watch('priceMode');
  const deactivateButton = useDeactivateButton();

  const apply = (label: string, writes: CellWrite[], lines: string[] = []) => {
    const changed = grid.current?.apply(label, writes) ?? 0;
    const title = `${label}: ${countOf(changed, 'cell')} changed`;
    setSummary({ title, lines });
    onAnnounce(title);
  };

  const applyPrice = () => {
    const { priceValue, ending } = actions.getValues();
    const percent = priceMode.endsWith('percent');
    const parsed = percent
      ? parsePercent(priceValue, priceMode.startsWith('raise') ? 1000 : 99.99)
      : priceMode === 'set'
        ? parsePrice(priceValue)
        : parseAmount(priceValue);
    if (!parsed.ok) {
      setError('priceValue', { message: parsed.message });
      return;
    }
    clearErrors('priceValue');
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
      roundingLine(
        rounded,
        `${countOf(rounded.length, 'price')} rounded (${PRICE_ENDING_LABELS[ending].toLowerCase()}${ending === 'cent' ? ', half up' : ''})`,
      ),
    ];
    if (outOfBounds.length > 0) {
      lines.push(
        `${countOf(outOfBounds.length, 'price')} leave the 10 to 1,000,000 range and are marked in the grid: ${examples(outOfBounds)}`,
      );
    }
    if (skipped > 0)
      lines.push(`${countOf(skipped, 'row')} with an invalid price were left as they are.`);
    apply(label, writes, lines);
  };

  const applyOffer = () => {
    const offerPercent = actions.getValues('offerPercent');
    const parsed = parsePercent(offerPercent, 100);
    if (!parsed.ok) {
      setError('offerPercent', { message: parsed.message });
      return;
    }
    clearErrors('offerPercent');
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
    const lines = [roundingLine(rounded, `${rounded.length} rounded half up to the cent`)];
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
        ? { status: to, ...(to === 'active' && { durationHours: actions.getValues('duration') }) }
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
              <select {...control} {...register('priceMode')}>
                <Options of={Object.entries(PRICE_MODES)} />
              </select>
            )}
          </FormField>
          <FormField
            label={priceMode.endsWith('percent') ? 'Percent (%)' : 'Amount (USD)'}
            error={errors.priceValue?.message}
            input={{ inputMode: 'decimal', ...register('priceValue') }}
          />
          <FormField label="Round the new prices">
            {(control) => (
              <PriceEndingSelect
                {...control}
                value={actions.watch('ending')}
                onChange={(ending) => actions.setValue('ending', ending)}
              />
            )}
          </FormField>
          <button type="button" onClick={applyPrice}>
            Apply price change
          </button>
        </fieldset>
        <fieldset>
          <legend>Minimum offer</legend>
          <FormField
            label="Minimum offer as % of price"
            error={errors.offerPercent?.message}
            input={{ inputMode: 'decimal', ...register('offerPercent') }}
          />
          <button type="button" onClick={applyOffer}>
            Set minimum offers
          </button>
        </fieldset>
        <fieldset>
          <legend>Switches</legend>
          <div className="button-row">
            {BOOLEAN_FIELDS.flatMap((field) =>
              [true, false].map((on) => {
                const name = `${FIELD_LABELS[field]} ${on ? 'on' : 'off'}`;
                return (
                  <button
                    key={name}
                    type="button"
                    onClick={() => setAll(name, () => ({ [field]: on }))}
                  >
                    {name}
                  </button>
                );
              }),
            )}
          </div>
        </fieldset>
        <fieldset>
          <legend>Status</legend>
          <FormField label="Fresh window">
            {(control) => (
              <select {...control} {...register('duration')}>
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
