import type { ReactNode } from 'react';
import { durationLabel } from '../../../components/duration-options';
import { FieldValue } from '../../../components/field-value';
import { FullDate } from '../../../components/figure';
import { StatusPill } from '../../../components/status-pill';
import { writtenTerms, type WrittenTerms } from '../../../api/listings/written-terms';
import { formatDateTime, formatMoney, humanize } from '../../../lib/format';
import type { ListingView } from './listing-view';
import { MarginFacts } from './margin-facts';
import { RuleLine } from './rule-line';
import { Fact } from '../../../components/fact';

const yesNo = (value: boolean, yes = 'Accepted', no = 'Not accepted') => (value ? yes : no);

type TermField = Exclude<keyof WrittenTerms, 'at' | 'description'>;
type Shown<K extends TermField> = Exclude<WrittenTerms[K], undefined>;

/** A term the API may not show: its value, or "not shown" with what was last set here. */
function Term<K extends TermField>({
  label,
  field,
  listing,
  written,
  after,
  children,
}: {
  label: string;
  field: K;
  listing: ListingView;
  written: WrittenTerms | undefined;
  after?: ReactNode;
  children: (value: Shown<K>) => ReactNode;
}) {
  const set = written?.[field] as Shown<K> | undefined;
  return (
    <Fact label={label}>
      <FieldValue
        value={listing[field] as Shown<K> | undefined}
        notShown={
          <>
            Not shown by the API
            {set !== undefined && written && (
              <span className="muted">
                {' '}
                · last set here to {children(set)}, on {formatDateTime(written.at)}
              </span>
            )}
          </>
        }
      >
        {children}
      </FieldValue>
      {after}
    </Fact>
  );
}

/** A date the view may leave out: nothing when it does. */
function DateFact({ label, iso }: { label: string; iso: string | null | undefined }) {
  if (!iso) return null;
  return (
    <Fact label={label}>
      <FullDate iso={iso} />
    </Fact>
  );
}

/** The listing's terms as the API shows them, each with what was last set here when it does not. */
export function SaleTermsPanel({
  listing,
  sold,
  unreadable,
}: {
  listing: ListingView;
  sold: boolean;
  unreadable(field: string): boolean;
}) {
  const written = writtenTerms(listing.id);
  const card = listing.card;
  return (
    <section aria-labelledby="terms-heading" className="panel">
      <h2 id="terms-heading">Sale terms</h2>
      <dl className="facts">
        <Fact label="Status">
          <FieldValue value={listing.status} unreadable={unreadable('status')}>
            {(status) => <StatusPill value={status} />}
          </FieldValue>
          {listing.reason && <> ({humanize(listing.reason)})</>}
        </Fact>
        <Fact label="Price">
          <FieldValue value={listing.price} unreadable={unreadable('price')}>
            {formatMoney}
          </FieldValue>
        </Fact>
        {!sold && (
          <MarginFacts price={listing.price} itemId={card.id} promoted={listing.promoted} />
        )}
        <RuleLine listingId={listing.id} />
        <Term label="Offers" field="acceptsOffers" listing={listing} written={written}>
          {(on) => yesNo(on)}
        </Term>
        {listing.acceptsOffers !== false && (
          <Term label="Minimum offer" field="minimumOffer" listing={listing} written={written}>
            {(amount) => (amount === null ? 'No minimum' : formatMoney(amount))}
          </Term>
        )}
        <Term label="Trades" field="acceptsTrades" listing={listing} written={written}>
          {(on) => yesNo(on)}
        </Term>
        <Term
          label="Window"
          field="durationHours"
          listing={listing}
          written={written}
          after={
            listing.windowEndsAt && (
              <>
                , ends <FullDate iso={listing.windowEndsAt} />
              </>
            )
          }
        >
          {(hours) => durationLabel(hours)}
        </Term>
        <Term label="Auto-relist" field="autoRelist" listing={listing} written={written}>
          {(on) => yesNo(on, 'On', 'Off')}
        </Term>
        <Term label="Promoted" field="promoted" listing={listing} written={written}>
          {(on) => yesNo(on, 'Yes (extra 3% fee on sale)', 'No')}
        </Term>
        <FieldValue
          label="Can be reactivated"
          value={listing.canReactivate}
          unreadable={unreadable('can_reactivate')}
        >
          {(can) => yesNo(can, 'Yes', 'No')}
        </FieldValue>
        {listing.isLot !== undefined && (
          <Fact label="Lot">
            {listing.isLot ? `Yes, ${listing.cardCount ?? 'several'} cards` : 'No, a single card'}
          </Fact>
        )}
        {listing.listedAt !== undefined && (
          <Fact label="Listed">
            {listing.listedAt === null ? 'Not live yet' : <FullDate iso={listing.listedAt} />}
          </Fact>
        )}
        <DateFact label="Scheduled go-live" iso={listing.scheduledGoLiveAt} />
        <DateFact label="Created" iso={listing.createdAt} />
        <DateFact label="Updated" iso={listing.updatedAt} />
        <FieldValue label="Public page" value={listing.url} unreadable={unreadable('url')}>
          {(url) => (
            <a href={url} target="_blank" rel="noreferrer noopener">
              View on the marketplace
            </a>
          )}
        </FieldValue>
      </dl>
      <h3>Description</h3>
      <FieldValue
        value={listing.description}
        notShown={
          <>
            Not shown by the API
            {written?.description !== undefined && (
              <span className="muted">
                {' '}
                · last set here on {formatDateTime(written.at)}: {written.description || '(empty)'}
              </span>
            )}
          </>
        }
      >
        {(text) =>
          text ? <p className="description">{text}</p> : <p className="muted">No description.</p>
        }
      </FieldValue>
    </section>
  );
}
