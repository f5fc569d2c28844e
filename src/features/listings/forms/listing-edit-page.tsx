import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import { paths } from '../../../shared/paths';
import { isApiError } from '../../../client';
import { offerWithinPriceIssues } from '../../../client/listing-rules';
import { CheckboxField, FormField } from '../../../components/form-field';
import { ErrorBanner } from '../../../components/error-banner';
import { FormMessages } from '../../../components/form-messages';
import { Loading } from '../../../components/states';
import { UnsavedChangesGuard } from '../../../components/unsaved-changes-guard';
import { REQUIRED_SCOPES } from '../../../api/required-scopes';
import { useServerErrors } from '../../../lib/use-server-errors';
import { editDefaults, toUpdatePatch } from './listing-bodies';
import { EditListingForm } from './listing-form-schemas';
import { useUpdateListing } from '../../../api/listings/listing-mutations';
import { ReadOnlyGate } from '../../../components/write-actions';
import { useListingView } from '../detail/listing-queries';
import type { ListingView } from '../detail/listing-view';
import { NOT_SHOWN, SaleTermsFields } from './sale-terms-fields';
import { writtenTerms } from '../../../api/listings/written-terms';
import { formatDateTime } from '../../../lib/format';
import { usePriceJumpAsk } from '../../../components/price-jump-ask';

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
  const [saved, setSaved] = useState(false);
  const jump = usePriceJumpAsk();
  const form = useForm<EditListingForm>({
    resolver: zodResolver(EditListingForm),
    defaultValues: editDefaults(listing),
    mode: 'onTouched',
  });
  const { register, handleSubmit, formState, control, setError } = form;
  const serverErrors = useServerErrors(form, EditListingForm);
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
    const patch = toUpdatePatch(values, formState.dirtyFields, listing);
    if (Object.keys(patch).length === 0) {
      serverErrors.say(['Nothing changed.']);
      return;
    }
    // The offer rule is checked on the patch: a minimum offer against the price sent, or the own.
    const clash =
      patch.minimum_offer == null
        ? []
        : offerWithinPriceIssues({
            price: String(patch.price ?? listing.price ?? ''),
            minimumOffer: String(patch.minimum_offer),
            offersOff: patch.accepts_offers === false,
            priceSent: patch.price !== undefined,
          });
    for (const { field, message } of clash) setError(field, { type: 'rule', message });
    if (clash.length > 0) return;
    const save = () =>
      update.mutate(
        { patch },
        {
          // Navigate once the guard has re-rendered without the unsaved-changes block.
          onSuccess: () => setSaved(true),
          onError: serverErrors.apply,
        },
      );
    if (patch.price === undefined) save();
    else jump.check(listing.price, String(patch.price), save);
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
      {bannerError && serverErrors.messages.length === 0 && (
        <ErrorBanner error={bannerError} title="The listing was not saved" />
      )}
      <FormMessages messages={serverErrors.messages} />
      {jump.dialog}
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
          input={{ inputMode: 'decimal', ...register('price') }}
        />
        <FormField
          label="Title"
          error={errors.title?.message}
          hint="1 to 180 characters."
          input={register('title')}
        />
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
        <SaleTermsFields
          offers={{
            field: register('accepts_offers'),
            known: offersKnown,
            hint: 'Turning offers off also clears the minimum offer.',
            lastSet: lastSet(written?.acceptsOffers, onOff),
          }}
          minimumOffer={{
            field: register('minimum_offer'),
            error: errors.minimum_offer?.message,
            disabled: offers === false || offers === 'no' || clearOffer,
            hint: !offerKnown
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
                : 'Ignored while offers are off.',
          }}
          afterMinimumOffer={
            !offerKnown && (
              <CheckboxField label="Remove the minimum offer">
                {(control) => (
                  <input type="checkbox" {...control} {...register('clear_minimum_offer')} />
                )}
              </CheckboxField>
            )
          }
          trades={{
            field: register('accepts_trades'),
            known: listing.acceptsTrades !== undefined,
            lastSet: lastSet(written?.acceptsTrades, onOff),
          }}
          autoRelist={{
            field: register('auto_relist'),
            known: listing.autoRelist !== undefined,
            lastSet: lastSet(written?.autoRelist, onOff),
          }}
          duration={{
            field: register('duration_hours'),
            error: errors.duration_hours?.message,
            label: listing.status === 'active' ? 'Extend the window by' : 'Next window',
            hint:
              listing.status === 'active'
                ? 'Adds to the current window.'
                : 'Sizes the window when it goes live.',
            unchanged: 'No change',
          }}
          promoted={{
            field: register('promoted'),
            locked: listing.promoted === true,
            warn: Boolean(promoted) && !listing.promoted,
            hint: listing.promoted
              ? 'Already promoted: promotion cannot be undone.'
              : `${listing.promoted === undefined ? 'The API does not show whether it is promoted already. ' : ''}One-way: once promoted it stays promoted, with an extra 3% seller fee when it sells.`,
          }}
        />
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
