import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { paths } from '../../app/paths';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { durationLabel } from '../../components/duration-options';
import { ErrorBanner } from '../../components/error-banner';
import { Loading } from '../../components/states';
import { StatusPill } from '../../components/status-pill';
import { useApiClient } from '../../lib/api-context';
import { REQUIRED_SCOPES } from '../../lib/connection-query';
import { formatDateTime, formatMoney, humanize } from '../../lib/format';
import { useDeactivateListing, useReactivateListing, useUpdateListing } from './listing-mutations';
import { listingDetailQuery } from './listing-queries';
import { ScheduleControls } from './schedule-controls';

/** One listing: every field, its card, its public page, and the actions a seller may take. */
export function ListingDetailPage() {
  const { listingId = '' } = useParams();
  const client = useApiClient();
  const location = useLocation();
  const flash = (location.state as { flash?: string } | null)?.flash;
  const query = useQuery(listingDetailQuery(client, listingId));
  const deactivate = useDeactivateListing(listingId);
  const reactivate = useReactivateListing(listingId);
  const toDraft = useUpdateListing(listingId);
  const [confirm, setConfirm] = useState<'deactivate' | 'reactivate' | 'draft' | null>(null);
  const [done, setDone] = useState<string | null>(flash ?? null);

  if (query.isPending) return <Loading label="Loading the listing…" />;
  if (query.isError) {
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
  const listing = query.data;
  const card = listing.svc_card;
  const variant = listing.variants[0];
  const sold = listing.svc_unavailable_reason === 'sold';
  const live = listing.status === 'active';
  const notLiveYet = listing.status === 'draft' && listing.svc_listed_at === null;
  const actionError = deactivate.error ?? reactivate.error ?? toDraft.error;

  return (
    <section aria-labelledby="listing-heading">
      <p className="breadcrumb">
        <Link to={paths.listings.to()}>Listings</Link> / {listing.id}
      </p>
      <div className="page-head">
        <h1 id="listing-heading">{listing.title}</h1>
        <div className="page-actions">
          {!sold && (
            <Link className="button primary" to={paths.editListing.to(listing.id)}>
              Edit listing
            </Link>
          )}
          {live && (
            <button type="button" onClick={() => setConfirm('draft')}>
              Set to draft
            </button>
          )}
          {!sold && listing.status !== 'archived' && (
            <button type="button" className="danger" onClick={() => setConfirm('deactivate')}>
              Deactivate
            </button>
          )}
          {!live && listing.svc_can_reactivate && !sold && (
            <button type="button" onClick={() => setConfirm('reactivate')}>
              Reactivate
            </button>
          )}
        </div>
      </div>

      {done && (
        <p className="banner banner-ok" role="status">
          {done}
        </p>
      )}
      {actionError && <ErrorBanner error={actionError} title="The change was not made" />}
      {sold && (
        <p className="banner banner-info" role="note">
          This listing sold, so it is read-only: the API refuses any change to a sold listing (409
          listing_write_conflict). See its order in{' '}
          <Link to={paths.orders.to(new URLSearchParams({ listing: listing.id }))}>Orders</Link>.
        </p>
      )}

      <div className="detail-grid">
        <section aria-labelledby="terms-heading" className="panel">
          <h2 id="terms-heading">Sale terms</h2>
          <dl className="facts">
            <dt>Status</dt>
            <dd>
              <StatusPill value={listing.status} />
              {listing.svc_unavailable_reason && <> ({humanize(listing.svc_unavailable_reason)})</>}
            </dd>
            <dt>Price</dt>
            <dd>{formatMoney(variant?.price)}</dd>
            <dt>Offers</dt>
            <dd>
              {listing.svc_accepts_offers
                ? `Accepted${listing.svc_minimum_offer ? `, minimum ${formatMoney(listing.svc_minimum_offer)}` : ', no minimum'}`
                : 'Not accepted'}
            </dd>
            <dt>Trades</dt>
            <dd>{listing.svc_accepts_trades ? 'Accepted' : 'Not accepted'}</dd>
            <dt>Window</dt>
            <dd>
              {durationLabel(listing.svc_duration_hours)}
              {listing.svc_window_ends_at && (
                <>, ends {formatDateTime(listing.svc_window_ends_at)}</>
              )}
            </dd>
            <dt>Auto-relist</dt>
            <dd>{listing.svc_auto_relist ? 'On' : 'Off'}</dd>
            <dt>Promoted</dt>
            <dd>{listing.svc_promoted ? 'Yes (extra 3% fee on sale)' : 'No'}</dd>
            <dt>Can be reactivated</dt>
            <dd>{listing.svc_can_reactivate ? 'Yes' : 'No'}</dd>
            <dt>Lot</dt>
            <dd>
              {listing.svc_is_lot ? `Yes, ${listing.svc_card_count} cards` : 'No, a single card'}
            </dd>
            <dt>Listed</dt>
            <dd>{formatDateTime(listing.svc_listed_at)}</dd>
            <dt>Scheduled go-live</dt>
            <dd>{formatDateTime(listing.svc_scheduled_go_live_at)}</dd>
            <dt>Created</dt>
            <dd>{formatDateTime(listing.created_at)}</dd>
            <dt>Updated</dt>
            <dd>{formatDateTime(listing.updated_at)}</dd>
            <dt>Public page</dt>
            <dd>
              <a href={listing.svc_url} target="_blank" rel="noreferrer noopener">
                {listing.handle}
              </a>
            </dd>
          </dl>
          {listing.body_html && (
            <>
              <h3>Description</h3>
              <p className="description">{listing.body_html}</p>
            </>
          )}
        </section>

        <section aria-labelledby="card-heading" className="panel">
          <h2 id="card-heading">The card</h2>
          <dl className="facts">
            <dt>Title</dt>
            <dd>{card.title}</dd>
            <dt>Player</dt>
            <dd>{card.player ?? '—'}</dd>
            <dt>Grade</dt>
            <dd>
              {card.grader} {card.grade}
            </dd>
            <dt>Cert number</dt>
            <dd>
              <code>{card.cert_number}</code>
            </dd>
            <dt>Year / set</dt>
            <dd>
              {card.year ?? '—'} · {card.set} · {card.variant}
            </dd>
            <dt>Category</dt>
            <dd>{humanize(card.category)}</dd>
            <dt>Inventory item</dt>
            <dd>
              <Link to={paths.inventory.to(new URLSearchParams({ q: card.cert_number }))}>
                {card.id}
              </Link>
              {listing.svc_inventory_item_ids.length > 1 && (
                <> and {listing.svc_inventory_item_ids.length - 1} more in the lot</>
              )}
            </dd>
            <dt>Card page</dt>
            <dd>
              <a href={card.url} target="_blank" rel="noreferrer noopener">
                Public card page
              </a>
            </dd>
          </dl>
          {listing.images.length > 0 && (
            <ul className="thumbs" aria-label="Photos">
              {listing.images.map((image) => (
                <li key={image.id}>
                  <img
                    src={image.src}
                    alt={`Photo ${image.position} of ${card.title}`}
                    width={96}
                    height={96}
                  />
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>

      {notLiveYet && !sold && <ScheduleControls listing={listing} onDone={setDone} />}

      <ConfirmDialog
        open={confirm === 'deactivate'}
        title="Deactivate this listing?"
        confirmLabel="Deactivate"
        danger
        busy={deactivate.isPending}
        onCancel={() => setConfirm(null)}
        onConfirm={() =>
          deactivate.mutate(undefined, {
            onSuccess: () =>
              setDone('Deactivated: the listing is off the marketplace. You can reactivate it.'),
            onSettled: () => setConfirm(null),
          })
        }
      >
        <p>
          It leaves the marketplace now. You can reactivate it later; a pending-approval listing is
          withdrawn.
        </p>
      </ConfirmDialog>
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
          It goes back on the marketplace with a fresh window of{' '}
          {durationLabel(listing.svc_duration_hours)}.
        </p>
      </ConfirmDialog>
    </section>
  );
}

export { ListingDetailPage as Component };
