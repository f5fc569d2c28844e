import { useState } from 'react';
import { Link, Navigate, useParams, useSearchParams } from 'react-router';
import { paths } from '../../../shared/paths';
import type { ListingRead } from '../../../client';
import { SoldHere } from '../sold-here/sold-here';
import {
  DeactivateDialog,
  DeactivateReason,
  useDeactivateButton,
} from '../../../components/deactivate-action';
import { ErrorBanner } from '../../../components/error-banner';
import { Figure, Money } from '../../../components/figure';
import { SlabIdentity } from '../../../components/slab-identity';
import { Loading } from '../../../components/states';
import { StatusPill } from '../../../components/status-pill';
import { useWriteButton } from '../../../components/write-actions';
import { useCertLookup, type CertMatch } from '../../../api/listings/cert-lookup';
import {
  useDeactivateListing,
  useReactivateListing,
} from '../../../api/listings/listing-mutations';
import { REQUIRED_SCOPES } from '../../../api/required-scopes';
import { useShowSale } from '../../../api/shows/show-queries';
import { ageInDays } from '../../../api/sales/listing-age';
import { estimateMargin } from '../../../api/sales/margin';
import { formatCents, formatDollars } from '../../../shared/money';
import { useMarginBasis } from '../../../api/sales/use-margin-basis';
import { countOf, formatMoney, formatShortDate, humanize } from '../../../lib/format';
import { useNow } from '../../../lib/use-now';
import { NewPrice } from './new-price';
import { RecentSales } from './recent-sales';
import { CostInPlace } from './cost-in-place';
import './counter.css';
import { Fact } from '../../../components/fact';

/** A scanned slab on one phone screen; a cert not held opens New listing; sold or twice: flag. */
export function CounterPage() {
  const { cert = '' } = useParams();
  const [params] = useSearchParams();
  const grader = params.get('grader') ?? undefined;
  const lookup = useCertLookup(cert);
  const { match, ready } = lookup;
  if (!match.listing && (lookup.catalogue.isError || !ready)) {
    return (
      <section aria-labelledby="counter-heading" className="counter">
        <h1 id="counter-heading">Cert {cert}</h1>
        {lookup.catalogue.isError ? (
          <ErrorBanner
            error={lookup.catalogue.error}
            title="Your listings could not be read"
            scope={REQUIRED_SCOPES.listings}
          />
        ) : (
          <Loading label="Looking for this cert in your listings…" />
        )}
      </section>
    );
  }
  if (!match.listing) {
    // Not held: list it. A card in inventory never listed is listed as that card.
    const item = match.items[0];
    return (
      <Navigate
        replace
        to={paths.newListing.to(
          item ? { inventoryItemId: item.id } : { sku: cert, ...(grader ? { grader } : {}) },
        )}
      />
    );
  }
  // A new scan is a new slab: nothing of the last one's forms, amounts or messages stays.
  return <CounterView key={match.listing.id} match={match} listing={match.listing} />;
}

function CounterView({ match, listing }: { match: CertMatch; listing: ListingRead }) {
  const now = useNow(60_000);
  const basis = useMarginBasis();
  const deactivate = useDeactivateListing(listing.id);
  const reactivate = useReactivateListing(listing.id);
  const writeButton = useWriteButton();
  const deactivateButton = useDeactivateButton();
  const [confirm, setConfirm] = useState<'deactivate' | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const card = listing.card;
  const facts = card?.id ? basis.costs?.get(card.id) : undefined;
  const cost = facts?.cost;
  const estimate =
    basis.rate && listing.price
      ? estimateMargin(listing.price, basis.rate, cost, listing.promoted)
      : undefined;
  const atShow = useShowSale(listing.id);
  const sold =
    listing.unavailable_reason === 'sold' ||
    match.sales.some((s) => s.listingId === listing.id) ||
    atShow.sold;
  const live = listing.status === 'active';
  const actionError = deactivate.error ?? reactivate.error;
  return (
    <section aria-labelledby="counter-heading" className="counter">
      <h1 id="counter-heading" className="counter-title">
        <SlabIdentity
          title={card?.title ?? listing.title ?? 'Untitled card'}
          facts={{
            grader: card?.grader,
            grade: card?.grade,
            cert: card?.cert_number,
            year: card?.year,
            set: card?.set,
            imageSrc: listing.images?.[0]?.src,
          }}
        />
      </h1>
      <CertFlags match={match} listing={listing} />
      {/* Sold at a show (here or on another phone): said first, and nothing more to sell. */}
      {atShow.sold && <SoldHere listing={listing} />}
      <dl className="counter-facts">
        <Fact box="counter-price" label="Asking">
          <Money amount={listing.price} />
        </Fact>
        <Fact box label="Status">
          <StatusPill value={sold ? 'sold' : listing.status} />
          {!sold && listing.unavailable_reason && (
            <span className="muted"> {humanize(listing.unavailable_reason)}</span>
          )}
        </Fact>
        <Fact box label="Nets online">
          {estimate ? (
            <>
              <Money amount={formatCents(estimate.netCents)} />{' '}
              <span className="muted">
                fee <Figure kind="money">{formatDollars(estimate.feeCents)}</Figure>
                {estimate.promotedFee ? ' incl. promotion' : ''}
              </span>
            </>
          ) : (
            <span className="muted">
              {basis.failed
                ? 'not known (orders could not be read)'
                : basis.ready
                  ? 'not known until an order is paid out'
                  : 'working out…'}
            </span>
          )}
        </Fact>
        <Fact box label="Cost">
          {cost !== undefined ? (
            <>
              <Money amount={cost} />
              {facts?.costKept && <span className="muted"> set in Slabdesk</span>}
            </>
          ) : (
            <span className="muted">{basis.costs ? 'not set' : 'reading…'}</span>
          )}
        </Fact>
        <Fact box label="Margin">
          {estimate?.marginCents !== undefined ? (
            <span className={estimate.marginCents < 0 ? 'below-cost' : undefined}>
              <Money amount={formatCents(estimate.marginCents)} />
            </span>
          ) : (
            <span className="muted">—</span>
          )}
        </Fact>
        <Fact box label="Listed">
          {listing.listed_at ? (
            <Figure kind="count">{countOf(ageInDays(listing.listed_at, now), 'day')}</Figure>
          ) : (
            <span className="muted">not listed yet</span>
          )}
        </Fact>
      </dl>
      {card?.id && <CostInPlace itemId={card.id} />}
      <RecentSales listing={listing} />
      {done && (
        <p className="banner banner-ok" role="status">
          {done}
        </p>
      )}
      {actionError && <ErrorBanner error={actionError} title="The change was not made" />}
      {!sold && listing.price && (
        <NewPrice
          listingId={listing.id}
          price={listing.price}
          onDone={(price) => setDone(`Price now ${formatMoney(price)}.`)}
        />
      )}
      {/* Sold at the table: off the marketplace at once and into the show's ledger. */}
      {!sold && <SoldHere listing={listing} />}
      <div className="counter-actions" role="group" aria-label="Slab actions">
        {live && !sold && (
          <button type="button" {...deactivateButton} onClick={() => setConfirm('deactivate')}>
            Deactivate
          </button>
        )}
        {!live && !sold && listing.can_reactivate !== false && listing.status !== 'draft' && (
          <button
            type="button"
            {...writeButton}
            disabled={writeButton.disabled ?? reactivate.isPending}
            onClick={() =>
              reactivate.mutate(undefined, {
                onSuccess: () => setDone('Reactivated: the listing is on the marketplace again.'),
              })
            }
          >
            {reactivate.isPending ? 'Reactivating…' : 'Reactivate'}
          </button>
        )}
        <Link className="button" to={paths.listing.to(listing.id)}>
          Full listing
        </Link>
      </div>
      {live && !sold && <DeactivateReason />}
      <DeactivateDialog
        open={confirm === 'deactivate'}
        deactivate={deactivate}
        onClose={() => setConfirm(null)}
        onDone={setDone}
      />
    </section>
  );
}

/** Loud when the same cert was sold before or is in stock twice: how counterfeits show. */
function CertFlags({ match, listing }: { match: CertMatch; listing: ListingRead }) {
  const flags: { key: string; text: React.ReactNode }[] = [];
  for (const sale of match.sales) {
    flags.push({
      key: `sale-${sale.orderId}`,
      text: (
        <>
          {sale.listingId === listing.id ? 'This listing sold' : 'This cert sold'} on{' '}
          <Figure kind="date">{formatShortDate(sale.soldAt)}</Figure> as{' '}
          <Link to={paths.order.to(sale.orderId)}>
            <Figure kind="code">{sale.code}</Figure>
          </Link>
          .
        </>
      ),
    });
  }
  for (const other of match.otherListings) {
    flags.push({
      key: `listing-${other.id}`,
      text: (
        <>
          The same cert is in stock under another listing:{' '}
          <Link to={paths.listing.to(other.id)}>{other.title ?? 'untitled'}</Link> (
          {humanize(other.status)}).
        </>
      ),
    });
  }
  const cards = new Set(match.items.map((item) => item.id));
  if (cards.size > 1) {
    flags.push({
      key: 'items',
      text: <>This cert is in your inventory {cards.size} times.</>,
    });
  }
  if (flags.length === 0) return null;
  return (
    <div className="banner banner-warn counter-flags" role="alert">
      <p>
        <strong>Check this slab:</strong> a cert seen twice is how counterfeits show.
      </p>
      <ul>
        {flags.map((flag) => (
          <li key={flag.key}>{flag.text}</li>
        ))}
      </ul>
    </div>
  );
}

export { CounterPage as Component };
