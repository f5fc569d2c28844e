import { useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { paths } from '../../../shared/paths';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { durationLabel } from '../../../components/duration-options';
import { ErrorBanner } from '../../../components/error-banner';
import { useWriteButton, WriteLink } from '../../../components/write-actions';
import {
  DeactivateDialog,
  DeactivateReason,
  useDeactivateButton,
} from '../../../components/deactivate-action';
import { Loading } from '../../../components/states';
import { REQUIRED_SCOPES } from '../../../api/required-scopes';
import {
  useDeactivateListing,
  useReactivateListing,
  useUpdateListing,
} from '../../../api/listings/listing-mutations';
import { useListingView } from './listing-queries';
import { isNotLiveYet, isPendingReview } from './listing-view';
import { ScheduleControls } from './schedule-controls';
import { ListingCardPanel } from './listing-card-panel';
import { ListingHistory } from './listing-history';
import { ListingActionsSlot } from '../../../components/listing-actions-slot';
import type { ListingRead } from '../../../client';
import { SaleTermsPanel } from './sale-terms-panel';

/** One listing: every field a view gives, its card, its public page, and the seller's actions. */
export function ListingDetailPage() {
  const { listingId = '' } = useParams();
  const location = useLocation();
  const flash = (location.state as { flash?: string } | null)?.flash;
  const { query, view: listing, row } = useListingView(listingId);
  const deactivate = useDeactivateListing(listingId);
  const reactivate = useReactivateListing(listingId);
  const toDraft = useUpdateListing(listingId);
  const [confirm, setConfirm] = useState<'deactivate' | 'reactivate' | 'draft' | null>(null);
  const [done, setDone] = useState<string | null>(flash ?? null);
  const writeButton = useWriteButton();
  const deactivateButton = useDeactivateButton();

  if (query.isPending) return <Loading label="Loading the listing…" />;
  if (query.isError || !listing) {
    return (
      <section>
        <h1>Listing</h1>
        <ErrorBanner
          error={query.error}
          title="The listing could not be loaded"
          scope={REQUIRED_SCOPES.listings}
          onRetry={() => void query.refetch()}
        />
        <Link to={paths.listings.to()}>Back to listings</Link>
      </section>
    );
  }
  const card = listing.card;
  const sold = listing.reason === 'sold';
  const live = listing.status === 'active';
  const notLiveYet = isNotLiveYet(listing);
  // Reactivation moves draft or archived only; a never-live listing goes live by "Go live now".
  const canReactivate =
    listing.canReactivate === true &&
    !sold &&
    !notLiveYet &&
    !isPendingReview(listing) &&
    (listing.status === 'draft' || listing.status === 'archived');
  const actionError = deactivate.error ?? reactivate.error ?? toDraft.error;
  const unreadable = (field: string) => listing.unreadable.includes(field);
  const title = listing.title ?? card.title ?? 'Listing';

  return (
    <section aria-labelledby="listing-heading">
      <p className="breadcrumb">
        <Link to={paths.listings.to()}>Listings</Link> / {title}
      </p>
      <div className="page-head">
        <h1 id="listing-heading">{title}</h1>
        <div className="page-actions">
          {!sold && (
            <WriteLink className="button primary" to={paths.editListing.to(listing.id)}>
              Edit listing
            </WriteLink>
          )}
          {live && (
            <button type="button" {...writeButton} onClick={() => setConfirm('draft')}>
              Set to draft
            </button>
          )}
          {!sold && listing.status !== 'archived' && (
            <button
              type="button"
              className="danger"
              {...deactivateButton}
              onClick={() => setConfirm('deactivate')}
            >
              Deactivate
            </button>
          )}
          {!sold && listing.status !== 'archived' && <DeactivateReason />}
          {canReactivate && (
            <button type="button" {...writeButton} onClick={() => setConfirm('reactivate')}>
              Reactivate
            </button>
          )}
        </div>
      </div>

      {!sold && listing.status === 'active' && (
        <ListingActionsSlot
          // Not in this device's copy yet: the single view's fields, which a list row shares.
          listing={row ?? (query.data as unknown as ListingRead)}
        />
      )}
      {done && (
        <p className="banner banner-ok" role="status">
          {done}
        </p>
      )}
      {actionError && <ErrorBanner error={actionError} title="The change was not made" />}
      {listing.unreadable.length > 0 && (
        <p className="banner banner-warn" role="status">
          Some fields of this listing could not be read and are marked below:{' '}
          {listing.unreadable.join(', ')}.
        </p>
      )}
      {sold && (
        <div className="banner banner-info" role="note">
          This listing sold, so it can no longer be changed. See its order in{' '}
          <Link to={paths.orders.to(new URLSearchParams({ listing: listing.id }))}>Orders</Link>.
          <details className="error-details">
            <summary>Details</summary>
            The marketplace refuses any change to a sold listing: <code>409</code>{' '}
            <code>listing_write_conflict</code>.
          </details>
        </div>
      )}

      <div className="detail-grid">
        <SaleTermsPanel listing={listing} sold={sold} unreadable={unreadable} />

        <ListingCardPanel listing={listing} title={title} unreadable={unreadable} />
      </div>

      <ListingHistory listingId={listing.id} />

      {notLiveYet && !sold && writeButton.disabled !== true && (
        <ScheduleControls
          listingId={listing.id}
          scheduledAt={listing.scheduledGoLiveAt}
          onDone={setDone}
        />
      )}

      <DeactivateDialog
        open={confirm === 'deactivate'}
        deactivate={deactivate}
        onClose={() => setConfirm(null)}
        onDone={setDone}
      />
      <ConfirmDialog
        open={confirm === 'draft'}
        title="Set this listing to draft?"
        confirmLabel="Set to draft"
        busy={toDraft.isPending}
        onCancel={() => setConfirm(null)}
        onConfirm={() =>
          toDraft.mutate(
            { patch: { status: 'draft' } },
            {
              onSuccess: () =>
                setDone('Set to draft: off the marketplace until you reactivate it.'),
              onSettled: () => setConfirm(null),
            },
          )
        }
      >
        <p>
          It leaves the marketplace but stays yours to edit; reactivating starts a fresh window.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirm === 'reactivate'}
        title="Reactivate this listing?"
        confirmLabel="Reactivate"
        busy={reactivate.isPending}
        onCancel={() => setConfirm(null)}
        onConfirm={() =>
          reactivate.mutate(undefined, {
            onSuccess: () => setDone('Reactivated: the listing is live with a fresh window.'),
            onSettled: () => setConfirm(null),
          })
        }
      >
        <p>
          It goes back on the marketplace with a fresh window
          {listing.durationHours !== undefined ? ` of ${durationLabel(listing.durationHours)}` : ''}
          .
        </p>
      </ConfirmDialog>
    </section>
  );
}

export { ListingDetailPage as Component };
