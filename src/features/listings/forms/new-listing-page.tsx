import { zodResolver } from '@hookform/resolvers/zod';
import { useRef, useState, type ChangeEvent } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { TradeInCost } from './trade-in-cost';
import { Link, useSearchParams } from 'react-router';
import { paths } from '../../../shared/paths';
import { GRADERS, isApiError, newIdempotencyKey, type ListingCreateInput } from '../../../client';
import { CheckboxField, FormField } from '../../../components/form-field';
import { ErrorBanner } from '../../../components/error-banner';
import { FormMessages } from '../../../components/form-messages';
import { UnsavedChangesGuard } from '../../../components/unsaved-changes-guard';
import { useServerErrors } from '../../../lib/use-server-errors';
import { CreatedOutcome, type Created } from './created-outcome';
import { newListingDefaults, toCreateInput, withoutReviewHold } from './listing-bodies';
import { goesToReview } from '../detail/listing-view';
import { NewListingForm } from './listing-form-schemas';
import { useCreateListing } from '../../../api/listings/listing-mutations';
import { ReadOnlyGate } from '../../../components/write-actions';
import { SaleTermsFields } from './sale-terms-fields';
import { CardDetailsFields, FromInventory, PhotoFields } from './new-listing-sections';
import { rememberReviewPreference, reviewPreference } from './review-preference';
import { Options } from '../../../components/options';

/** New listing from a cert and a price; one Idempotency-Key per body: a retry is one write. */
export function NewListingPage() {
  return (
    <ReadOnlyGate title="New listing">
      <NewListingContent />
    </ReadOnlyGate>
  );
}

function NewListingContent() {
  const [params] = useSearchParams();
  const createListing = useCreateListing();
  const idempotency = useRef<{ key: string; body: string } | null>(null);
  const [created, setCreated] = useState<Created | null>(null);
  const [certNotFound, setCertNotFound] = useState(false);
  const form = useForm<NewListingForm>({
    resolver: zodResolver(NewListingForm),
    defaultValues: newListingDefaults({
      inventoryItemId: params.get('inventory_item_id'),
      sku: params.get('sku'),
      grader: params.get('grader'),
      review: reviewPreference(),
    }),
    mode: 'onTouched',
  });
  const { register, handleSubmit, formState, setError, control, setValue } = form;
  const watchedSku = useWatch({ control, name: 'sku' });
  const serverErrors = useServerErrors(form, NewListingForm);
  const errors = formState.errors;
  const source = useWatch({ control, name: 'source' });
  const offers = useWatch({ control, name: 'accepts_offers' });
  const promoted = useWatch({ control, name: 'promoted' });
  const inventoryItemId = useWatch({ control, name: 'inventory_item_id' });

  const onValid = (values: NewListingForm) => send(values, toCreateInput(values));

  const send = (values: NewListingForm, input: ListingCreateInput) => {
    const body = JSON.stringify(input);
    if (!idempotency.current || idempotency.current.body !== body) {
      idempotency.current = { key: newIdempotencyKey(), body };
    }
    createListing.mutate(
      { input, idempotencyKey: idempotency.current.key },
      {
        onSuccess: (listing) => {
          const reviewBound = input.sku !== undefined && goesToReview(listing.card.grader);
          setCreated({
            listing,
            // A listing the marketplace reviews has no go-live time to promise.
            scheduledAt: reviewBound ? undefined : input.scheduled_go_live_at,
            review: values.review && !values.scheduled_go_live_at,
            reviewBound,
          });
          setCertNotFound(false);
        },
        onError: (error) => {
          if (isApiError(error) && error.code === 'cert_not_found') {
            setCertNotFound(true);
            setValue('use_card', true);
            setError('sku', {
              type: 'server',
              message:
                'No grader recognises this cert. Check the number, or give the card details below to list it for review.',
            });
            return;
          }
          // Own check refused: nothing was created, the marketplace's review stands in.
          const again =
            isApiError(error) && error.status === 422
              ? withoutReviewHold(values, input, error.fieldErrors)
              : undefined;
          if (again) {
            send(values, again);
            return;
          }
          serverErrors.apply(error);
        },
      },
    );
  };

  if (created)
    return (
      <CreatedOutcome
        created={created}
        onAnother={() => {
          setCreated(null);
          idempotency.current = null;
          form.reset(newListingDefaults({}));
        }}
      />
    );

  const error = createListing.error;
  const bannerError =
    error && !(isApiError(error) && (error.hasFieldErrors || error.code === 'cert_not_found'))
      ? error
      : null;
  const lookupDown = isApiError(error) && error.code === 'cert_lookup_unavailable';

  return (
    <section aria-labelledby="new-heading">
      <p className="breadcrumb">
        <Link to={paths.listings.to()}>Listings</Link> / new
      </p>
      <h1 id="new-heading">New listing</h1>
      <UnsavedChangesGuard when={formState.isDirty && !createListing.isPending} />
      <ErrorBanner
        error={bannerError}
        title={lookupDown ? 'The grader lookup is unavailable' : 'The listing was not created'}
      />
      {lookupDown && (
        <p className="banner banner-info" role="note">
          Nothing was created. Submitting again retries the same request with the same
          Idempotency-Key, so it can never list the card twice. You can also give the card details
          below: they are used when the lookup is down.
        </p>
      )}
      <FormMessages messages={serverErrors.messages} />
      <form
        noValidate
        onSubmit={(event) => void handleSubmit(onValid)(event)}
        className="form-grid"
        aria-label="New listing"
      >
        <fieldset className="wide">
          <legend>The card</legend>
          {source === 'inventory_item_id' ? (
            <FromInventory
              itemId={inventoryItemId}
              error={errors.inventory_item_id?.message}
              onUseCert={() => {
                setValue('source', 'sku', { shouldDirty: true });
                setValue('inventory_item_id', '', { shouldDirty: true });
              }}
            />
          ) : (
            <>
              <FormField
                label="Cert number"
                error={errors.sku?.message}
                hint="The grading certificate number on the slab."
                input={{ autoComplete: 'off', ...register('sku') }}
              />
              <TradeInCost cert={watchedSku} />
              <FormField
                label="Grader"
                error={errors.grader?.message}
                hint="Optional: if omitted, PSA, BGS, SGC and CGC are tried in that order."
              >
                {(c) => (
                  <select {...c} {...register('grader')}>
                    <option value="">Try all graders</option>
                    <Options of={GRADERS.map((grader) => [grader, grader])} />
                  </select>
                )}
              </FormField>
            </>
          )}
        </fieldset>

        <FormField
          label="Price (USD)"
          error={errors.price?.message}
          hint="From $10 to $1,000,000, at most 2 decimals."
          input={{ inputMode: 'decimal', ...register('price') }}
        />
        <FormField
          label="Title"
          error={errors.title?.message}
          hint="Optional: overrides the grader's title (at most 180 characters)."
          input={register('title')}
        />
        <FormField
          label="Description"
          error={errors.description?.message}
          hint="Optional plain text, at most 1000 characters."
          className="wide"
        >
          {(c) => <textarea {...c} rows={3} {...register('description')} />}
        </FormField>

        {source === 'sku' && <PhotoFields form={form} />}

        <fieldset className="wide">
          <legend>Sale terms</legend>
          <div className="form-grid">
            <SaleTermsFields
              offers={{ field: register('accepts_offers') }}
              minimumOffer={{
                field: register('minimum_offer'),
                error: errors.minimum_offer?.message,
                hint: offers ? 'Optional, at most the price.' : 'Only with offers on.',
                disabled: !offers,
              }}
              trades={{ field: register('accepts_trades') }}
              autoRelist={{ field: register('auto_relist') }}
              duration={{
                field: register('duration_hours'),
                error: errors.duration_hours?.message,
                label: 'Duration',
              }}
              promoted={{
                field: register('promoted'),
                hint: 'One-way, with an extra 3% seller fee when it sells.',
                warn: promoted,
              }}
            />
            <FormField
              label="Go live at (optional)"
              error={errors.scheduled_go_live_at?.message}
              hint="Empty: as soon as it is created. A future time creates it as a scheduled draft."
              input={{ type: 'datetime-local', ...register('scheduled_go_live_at') }}
            />
            <CheckboxField
              label="Check the card before it goes live"
              hint="Creates it scheduled 30 minutes ahead; you then see the card the cert resolved to and choose Go live now or Withdraw."
            >
              {(c) => (
                <input
                  type="checkbox"
                  {...c}
                  {...register('review', {
                    onChange: (event: ChangeEvent<HTMLInputElement>) =>
                      rememberReviewPreference(event.target.checked),
                  })}
                />
              )}
            </CheckboxField>
          </div>
        </fieldset>

        {source === 'sku' && <CardDetailsFields form={form} certNotFound={certNotFound} />}

        <div className="form-actions wide">
          <button type="submit" className="primary" disabled={createListing.isPending}>
            {createListing.isPending ? 'Listing…' : lookupDown ? 'Retry' : 'Create listing'}
          </button>
          <Link to={paths.listings.to()}>Cancel</Link>
        </div>
      </form>
    </section>
  );
}

export { NewListingPage as Component };
