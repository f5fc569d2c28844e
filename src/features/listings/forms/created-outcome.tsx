import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ListingCreated } from '../../../client';
import { ErrorBanner } from '../../../components/error-banner';
import { Loading } from '../../../components/states';
import { useDeactivateButton } from '../../../components/deactivate-action';
import { useApiClient } from '../../../api/api-context';
import { bootMode } from '../../../lib/boot-mode';
import { pingQuery } from '../../../api/connection-query';
import { paths } from '../../../shared/paths';
import { useDeactivateListing, useUpdateListing } from '../../../api/listings/listing-mutations';
import { describeOutcome } from './listing-outcome';
import { listingDetailQuery } from '../../../api/listings/listing-detail-query';
import { Fact } from '../../../components/fact';

export interface Created {
  listing: ListingCreated;
  scheduledAt?: string | undefined;
  /** The seller asked to check the card before it goes live. */
  review?: boolean;
  /** The cert goes to the marketplace's review: it is not live before that, and no time is set. */
  reviewBound?: boolean;
}

/** The resolved card, and the spec's moves before go-live: release it now, or withdraw it. */
function ReviewBeforeLive({ listingId, reviewBound }: { listingId: string; reviewBound: boolean }) {
  const client = useApiClient();
  const detail = useQuery(listingDetailQuery(client, listingId));
  const release = useUpdateListing(listingId);
  const withdraw = useDeactivateListing(listingId);
  const deactivateButton = useDeactivateButton();
  const [done, setDone] = useState<string | null>(null);
  const card = detail.data?.card;
  // Only the marketplace's review can put a listing it reviews live.
  const canRelease =
    !reviewBound &&
    detail.data?.unavailable_reason !== 'pending_review' &&
    detail.data?.status !== 'active';
  const busy = release.isPending || withdraw.isPending;
  const error = release.error ?? withdraw.error;
  return (
    <section className="panel" aria-labelledby="review-heading">
      <h2 id="review-heading">Is this the right card?</h2>
      {card ? (
        <dl className="facts">
          <Fact label="Card">{card.title ?? '—'}</Fact>
          <Fact label="Grade">
            {card.grader ?? '?'} {card.grade ?? '?'}
          </Fact>
          <Fact label="Cert number">
            <code>{card.cert_number ?? '—'}</code>
          </Fact>
        </dl>
      ) : (
        <Loading label="Reading the card the cert resolved to…" />
      )}
      {done ? (
        <p role="status">{done}</p>
      ) : (
        <p className="form-actions">
          {canRelease && (
            <button
              type="button"
              className="primary"
              disabled={busy}
              onClick={() =>
                release.mutate(
                  { patch: { scheduled_go_live_at: null } },
                  { onSuccess: () => setDone('Released: the listing is live now.') },
                )
              }
            >
              Go live now
            </button>
          )}
          <button
            type="button"
            className="danger"
            disabled={busy || deactivateButton.disabled}
            aria-describedby={deactivateButton['aria-describedby']}
            onClick={() =>
              withdraw.mutate(undefined, {
                onSuccess: () =>
                  setDone('Withdrawn: the listing is deactivated and never went live.'),
              })
            }
          >
            Withdraw
          </button>
        </p>
      )}
      {error && <ErrorBanner error={error} title="The change was not made" />}
    </section>
  );
}

export function CreatedOutcome({ created, onAnother }: { created: Created; onAnother(): void }) {
  const client = useApiClient();
  const detail = useQuery(listingDetailQuery(client, created.listing.id));
  const ping = useQuery(pingQuery(client));
  const outcome = describeOutcome(
    detail.data?.status ?? created.listing.status,
    detail.data?.unavailable_reason,
    // Once read, the listing says whether it is still scheduled (a withdrawn one is not).
    detail.data ? detail.data.scheduled_go_live_at : created.scheduledAt,
    ping.data?.mode ?? bootMode(),
    created.reviewBound,
  );
  return (
    <section aria-labelledby="created-heading">
      <h1 id="created-heading">Listing created</h1>
      <div className={`banner banner-ok outcome-${outcome.kind}`} role="status">
        <p>
          <strong>{created.listing.title}</strong>
        </p>
        <p>{outcome.text}</p>
      </div>
      {created.review && (
        <ReviewBeforeLive
          listingId={created.listing.id}
          reviewBound={created.reviewBound === true}
        />
      )}
      <p>
        <Link to={paths.listing.to(created.listing.id)}>Open the listing</Link> ·{' '}
        <button type="button" className="link-button" onClick={onAnother}>
          List another card
        </button>
      </p>
    </section>
  );
}
