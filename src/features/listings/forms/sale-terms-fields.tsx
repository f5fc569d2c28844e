import type { ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { DurationOptions } from '../../../components/duration-options';
import { CheckboxField, FormField } from '../../../components/form-field';

export const NOT_SHOWN = 'The API does not show the current value';

/** An on/off term: a checkbox when its current value is known, else a "set to" choice. */
export interface Term {
  field: UseFormRegisterReturn;
  /** False when the API does not show the current value (default: known). */
  known?: boolean;
  hint?: string | undefined;
  /** "Last set here to …": what this dashboard last wrote, when the API does not show it. */
  lastSet?: string | undefined;
}

function TermField({ label, term }: { label: string; term: Term }) {
  if (term.known !== false) {
    return (
      <CheckboxField label={label} hint={term.hint}>
        {(control) => <input type="checkbox" {...control} {...term.field} />}
      </CheckboxField>
    );
  }
  return (
    <FormField
      label={label}
      hint={[`${NOT_SHOWN}: leave it, or set it.`, term.lastSet, term.hint]
        .filter(Boolean)
        .join(' ')}
    >
      {(control) => (
        <select {...control} {...term.field}>
          <option value="">Leave as it is</option>
          <option value="yes">Set to yes</option>
          <option value="no">Set to no</option>
        </select>
      )}
    </FormField>
  );
}

/** The sale terms block of the new and edit forms: offers, trades, relist, window, promotion. */
export function SaleTermsFields({
  offers,
  minimumOffer,
  afterMinimumOffer,
  trades,
  autoRelist,
  duration,
  promoted,
}: {
  offers: Term;
  minimumOffer: {
    field: UseFormRegisterReturn;
    error: string | undefined;
    hint: string;
    disabled: boolean;
  };
  afterMinimumOffer?: ReactNode;
  trades: Term;
  autoRelist: Term;
  duration: {
    field: UseFormRegisterReturn;
    error: string | undefined;
    label: string;
    hint?: string | undefined;
    /** The choice that leaves the window as it is, when there is one. */
    unchanged?: string | undefined;
  };
  promoted: {
    field: UseFormRegisterReturn;
    hint: string;
    /** Already promoted: the box stays ticked and cannot be changed. */
    locked?: boolean;
    /** Ticked now (and not promoted before): show the warning. */
    warn: boolean;
  };
}) {
  return (
    <>
      <TermField label="Accept offers" term={offers} />
      <FormField label="Minimum offer (USD)" error={minimumOffer.error} hint={minimumOffer.hint}>
        {(control) => (
          <input
            {...control}
            inputMode="decimal"
            disabled={minimumOffer.disabled}
            {...minimumOffer.field}
          />
        )}
      </FormField>
      {afterMinimumOffer}
      <TermField label="Accept trades" term={trades} />
      <TermField label="Auto-relist when the window ends" term={autoRelist} />
      <FormField label={duration.label} error={duration.error} hint={duration.hint}>
        {(control) => (
          <select {...control} {...duration.field}>
            {duration.unchanged !== undefined && <option value="">{duration.unchanged}</option>}
            <DurationOptions />
          </select>
        )}
      </FormField>
      <CheckboxField label="Promote this listing" hint={promoted.hint}>
        {(control) => (
          <input type="checkbox" {...control} disabled={promoted.locked} {...promoted.field} />
        )}
      </CheckboxField>
      {promoted.warn && (
        <p className="banner banner-warn wide" role="note">
          Promotion cannot be undone and adds a 3% seller fee when the card sells.
        </p>
      )}
    </>
  );
}
