import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm, useWatch, type UseFormRegisterReturn } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import { paths } from '../../lib/paths';
import { isApiError } from '../../client';
import { CheckboxField, FormField } from '../../components/form-field';
import { DurationOptions } from '../../components/duration-options';
import { ErrorBanner } from '../../components/error-banner';
import { Loading } from '../../components/states';
import { UnsavedChangesGuard } from '../../components/unsaved-changes-guard';
import { REQUIRED_SCOPES } from '../../lib/connection-query';
import { applyServerErrors } from '../../lib/server-errors';
import { editDefaults, toUpdatePatch } from './listing-bodies';
import { EDIT_FIELDS, EditListingForm } from './listing-form-schemas';
import { useUpdateListing } from './listing-mutations';
import { ReadOnlyGate } from '../../components/write-actions';
import { useListingView } from './listing-queries';
import type { ListingView } from './listing-view';
import { writtenTerms } from './written-terms';
import { formatDateTime } from '../../lib/format';

const NOT_SHOWN = 'The API does not show the current value';

/** An on/off term: a checkbox when its current value is known, else a "set to" choice. */
function SetToField({
  label,
  known,
  hint,
  lastSet,
  field,
}: {
  label: string;
  known: boolean;
  hint?: string | undefined;
  lastSet?: string | undefined;
  field: UseFormRegisterReturn;
}) {
  if (known) {
    return (
      <CheckboxField label={label} hint={hint}>
        {(control) => <input type="checkbox" {...control} {...field} />}
      </CheckboxField>
    );
  }
  return (
    <FormField
      label={label}
      hint={[`${NOT_SHOWN}: leave it, or set it.`, lastSet, hint].filter(Boolean).join(' ')}
    >
      {(control) => (
        <select {...control} {...field}>
          <option value="">Leave as it is</option>
          <option value="yes">Set to yes</option>
          <option value="no">Set to no</option>
        </select>
      )}
    </FormField>
  );
}

/** The edit route: loads the listing, then its form. */
export function ListingEditPage() {
  const { listingId = '' } = useParams();
  const { query, view } = useListingView(listingId);
  if (query.isPending) return <Loading label="Loading the listing…" />;
  if (query.isError || !view) {
    return (
      <ErrorBanner
        error={query.error}
        title="The listing could not be loaded"
        scope={REQUIRED_SCOPES.listings}
      />
    );
  }
  return (
    <ReadOnlyGate title="Edit listing">
      <EditListingFormView listing={view} />
    </ReadOnlyGate>
  );
}

export function EditListingFormView({ listing }: { listing: ListingView }) {
  const navigate = useNavigate();
  const update = useUpdateListing(listing.id);
  const [formMessages, setFormMessages] = useState<string[]>([]);
  const [saved, setSaved] = useState(false);
  const form = useForm<EditListingForm>({
    resolver: zodResolver(EditListingForm),
    defaultValues: editDefaults(listing),
    mode: 'onTouched',
  });
  const { register, handleSubmit, formState, setError, control } = form;
  const errors = formState.errors;
  const offers = useWatch({ control, name: 'accepts_offers' });
  const clearOffer = useWatch({ control, name: 'clear_minimum_offer' });
  const promoted = useWatch({ control, name: 'promoted' });
  const sold = listing.reason === 'sold';
  const written = writtenTerms(listing.id);
  const lastSet = (value: boolean | string | null | undefined, words?: (v: never) => string) =>
    value === undefined || !written
      ? undefined
      : `Last set here to ${words ? words(value as never) : String(value)}, on ${formatDateTime(written.at)}.`;
  const onOff = (value: boolean) => (value ? 'yes' : 'no');
  const offersKnown = listing.acceptsOffers !== undefined;
  const offerKnown = listing.minimumOffer !== undefined;

  const onSubmit = handleSubmit((values) => {
    setFormMessages([]);
    const patch = toUpdatePatch(values, formState.dirtyFields, listing);
    if (Object.keys(patch).length === 0) {
      setFormMessages(['Nothing changed.']);
      return;
    }
    update.mutate(
      { patch },
      {
        // Navigate once the guard has re-rendered without the unsaved-changes block.
        onSuccess: () => setSaved(true),
        onError: (error) => {
          const applied = applyServerErrors(error, setError, EDIT_FIELDS);
          setFormMessages(applied.formMessages);
        },
      },
    );
  });

  useEffect(() => {
    if (saved) void navigate(paths.listing.to(listing.id), { state: { flash: 'Saved.' } });
  }, [saved, navigate, listing.id]);

  const bannerError =
    update.error && !(isApiError(update.error) && update.error.hasFieldErrors)
      ? update.error
      : null;

  if (sold) {
    return (
      <section>
        <h1>Edit listing</h1>
        <p className="banner banner-info" role="note">
          This listing sold: it cannot be edited.
        </p>
        <Link to={paths.listing.to(listing.id)}>Back to the listing</Link>
      </section>
    );
  }

  return (
    <section aria-labelledby="edit-heading">
      <p className="breadcrumb">
        <Link to={paths.listings.to()}>Listings</Link> /{' '}
        <Link to={paths.listing.to(listing.id)}>{listing.title ?? 'Listing'}</Link> / edit
      </p>
      <h1 id="edit-heading">Edit {listing.title ?? 'listing'}</h1>
      <UnsavedChangesGuard when={formState.isDirty && !saved} />
      {bannerError && formMessages.length === 0 && (
        <ErrorBanner error={bannerError} title="The listing was not saved" />
      )}
      {formMessages.length > 0 && (
        <div className="banner banner-error" role="alert">
          {formMessages.map((message) => (
            <p key={message}>{message}</p>
          ))}
        </div>
      )}
      <form
        noValidate
        onSubmit={(event) => void onSubmit(event)}
        className="form-grid"
        aria-label="Edit listing"
      >
        <FormField
          label="Price (USD)"
          error={errors.price?.message}
          hint="From $10 to $1,000,000, at most 2 decimals."
        >
          {(control) => <input {...control} inputMode="decimal" {...register('price')} />}
        </FormField>
        <FormField label="Title" error={errors.title?.message} hint="1 to 180 characters.">
          {(control) => <input {...control} {...register('title')} />}
        </FormField>
        <FormField
          label="Description"
          error={errors.description?.message}
          hint={
            listing.description === undefined
              ? `${NOT_SHOWN}: what you type replaces it; leave empty to keep it. At most 1000 characters.`
              : 'Plain text, at most 1000 characters.'
          }
          className="wide"
        >
          {(control) => <textarea {...control} rows={4} {...register('description')} />}
        </FormField>
        <SetToField
          label="Accept offers"
          known={offersKnown}
          hint="Turning offers off also clears the minimum offer."
          lastSet={lastSet(written?.acceptsOffers, onOff)}
          field={register('accepts_offers')}
        />
        <FormField
          label="Minimum offer (USD)"
          error={errors.minimum_offer?.message}
          hint={
            !offerKnown
              ? [
                  `${NOT_SHOWN}: leave empty to keep it, or type a new one. At most the asking price.`,
                  lastSet(written?.minimumOffer, (v: string | null) =>
                    v === null ? 'none' : `$${v}`,
                  ),
                ]
                  .filter(Boolean)
                  .join(' ')
              : offers
                ? 'At most the asking price. Empty clears it.'
                : 'Ignored while offers are off.'
          }
        >
          {(control) => (
            <input
              {...control}
              inputMode="decimal"
              disabled={offers === false || offers === 'no' || clearOffer}
              {...register('minimum_offer')}
            />
          )}
        </FormField>
        {!offerKnown && (
          <CheckboxField label="Remove the minimum offer">
            {(control) => (
              <input type="checkbox" {...control} {...register('clear_minimum_offer')} />
            )}
          </CheckboxField>
        )}
        <SetToField
          label="Accept trades"
          known={listing.acceptsTrades !== undefined}
          lastSet={lastSet(written?.acceptsTrades, onOff)}
          field={register('accepts_trades')}
        />
        <SetToField
          label="Auto-relist when the window ends"
          known={listing.autoRelist !== undefined}
          lastSet={lastSet(written?.autoRelist, onOff)}
          field={register('auto_relist')}
        />
        <CheckboxField
          label="Promote this listing"
          hint={
            listing.promoted
              ? 'Already promoted: promotion cannot be undone.'
              : `${listing.promoted === undefined ? 'The API does not show whether it is promoted already. ' : ''}One-way: once promoted it stays promoted, with an extra 3% seller fee when it sells.`
          }
        >
          {(control) => (
            <input
              type="checkbox"
              {...control}
              disabled={listing.promoted === true}
              {...register('promoted')}
            />
          )}
        </CheckboxField>
        {promoted && !listing.promoted && (
          <p className="banner banner-warn wide" role="note">
            Promotion is one-way and adds a 3% seller fee when the card sells.
          </p>
        )}
        <FormField
          label={listing.status === 'active' ? 'Extend the window by' : 'Next window'}
          error={errors.duration_hours?.message}
          hint={
            listing.status === 'active'
              ? 'Adds to the current window.'
              : 'Sizes the window when it goes live.'
          }
        >
          {(control) => (
            <select {...control} {...register('duration_hours')}>
              <option value="">No change</option>
              <DurationOptions />
            </select>
          )}
        </FormField>
        <div className="form-actions wide">
          <button type="submit" className="primary" disabled={update.isPending}>
            {update.isPending ? 'Saving…' : 'Save changes'}
          </button>
          <Link to={paths.listing.to(listing.id)}>Cancel</Link>
        </div>
      </form>
    </section>
  );
}

export { ListingEditPage as Component };
