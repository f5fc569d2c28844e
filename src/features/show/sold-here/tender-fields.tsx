import type { UseFormReturn } from 'react-hook-form';
import { formatDollars } from '../../../shared/money';
import { FormField } from '../../../components/form-field';
import type { TenderKind } from '../../../shared/show-tenders';
import { AMOUNT_FIELD, centsLeft, typedAmount, type SaleValues } from './sale-schema';

const WAYS: { kind: TenderKind; label: string; amountLabel: string }[] = [
  { kind: 'cash', label: 'Cash', amountLabel: 'Cash ($)' },
  { kind: 'card', label: 'Card, on my reader', amountLabel: 'Card ($)' },
  { kind: 'other', label: 'Other (Venmo, PayPal…)', amountLabel: 'Other ($)' },
  { kind: 'trade', label: 'A card in trade', amountLabel: 'Its agreed value ($)' },
];

/** "$40.00 left to take", "All $250.00 taken", "$10.00 too much": the split as it stands. */
export function leftWords(values: SaleValues): string {
  const left = centsLeft(values);
  if (left > 0) return `${formatDollars(left)} left to take`;
  if (left < 0) return `${formatDollars(-left)} too much`;
  return `All ${formatDollars(centsLeft({ ...values, tenders: [] }))} taken`;
}

/** How the buyer paid: each way chosen (a split), its amount, a trade's card, an other's note. */
export function TenderFields({ form }: { form: UseFormReturn<SaleValues> }) {
  const { register, watch, formState } = form;
  const errors = formState.errors;
  const values = watch();
  const chosen = values.tenders;
  // A split, or a trade's agreed value: what is left to take, as the seller types.
  const typed = chosen.some((kind) => typedAmount(chosen, kind));
  return (
    <>
      <fieldset
        className="sold-here-payment"
        aria-describedby={errors.tenders ? 'sold-here-tenders-error' : undefined}
      >
        <legend>Paid with (choose more than one to split)</legend>
        {WAYS.map((way) => (
          <label key={way.kind}>
            <input type="checkbox" value={way.kind} {...register('tenders')} /> {way.label}
          </label>
        ))}
      </fieldset>
      {WAYS.filter((way) => chosen.includes(way.kind)).map((way) => (
        <div key={way.kind} className="sold-here-tender">
          {way.kind === 'trade' && (
            <>
              <FormField label="Card taken in trade" error={errors.tradeTitle?.message}>
                {(control) => <input {...control} {...register('tradeTitle')} />}
              </FormField>
              <FormField label="Its cert number (optional)" error={errors.tradeCert?.message}>
                {(control) => <input {...control} inputMode="numeric" {...register('tradeCert')} />}
              </FormField>
            </>
          )}
          {way.kind === 'other' && (
            <FormField label="Paid by (Venmo, PayPal…)" error={errors.otherNote?.message}>
              {(control) => <input {...control} maxLength={80} {...register('otherNote')} />}
            </FormField>
          )}
          {typedAmount(chosen, way.kind) && (
            <FormField
              label={way.amountLabel}
              error={errors[AMOUNT_FIELD[way.kind]]?.message}
              hint={way.kind === 'trade' ? 'Becomes its cost when you list it.' : undefined}
            >
              {(control) => (
                <input {...control} inputMode="decimal" {...register(AMOUNT_FIELD[way.kind])} />
              )}
            </FormField>
          )}
        </div>
      ))}
      {typed && (
        <p className="sold-here-left figure" aria-live="polite">
          {leftWords(values)}
        </p>
      )}
      {errors.tenders && (
        <p className="field-error" id="sold-here-tenders-error" role="alert">
          {errors.tenders.message}
        </p>
      )}
    </>
  );
}
