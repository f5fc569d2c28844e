import { Link } from 'react-router';
import { FieldValue } from '../../../components/field-value';
import { humanize } from '../../../lib/format';
import { paths } from '../../../shared/paths';
import type { ListingView } from './listing-view';

/** The listing's card: what the views give of it, its photos, and where to find it. */
export function ListingCardPanel({
  listing,
  title,
  unreadable,
}: {
  listing: ListingView;
  title: string;
  unreadable(field: string): boolean;
}) {
  const card = listing.card;
  return (
    <section aria-labelledby="card-heading" className="panel">
      <h2 id="card-heading">The card</h2>
      <dl className="facts">
        <dt>Title</dt>
        <dd>
          <FieldValue value={card.title} unreadable={unreadable('card.title')}>
            {(text) => text}
          </FieldValue>
        </dd>
        {card.player !== undefined && (
          <>
            <dt>Player</dt>
            <dd>{card.player ?? '—'}</dd>
          </>
        )}
        <dt>Grade</dt>
        <dd>
          {card.grader ?? '?'} {card.grade ?? '?'}
        </dd>
        <dt>Cert number</dt>
        <dd>
          <FieldValue value={card.certNumber} unreadable={unreadable('card.cert_number')}>
            {(cert) => <code>{cert}</code>}
          </FieldValue>
        </dd>
        {(card.year !== undefined || card.set !== undefined) && (
          <>
            <dt>Year / set</dt>
            <dd>
              {[card.year ?? '—', card.set, card.variant]
                .filter((part) => part !== undefined)
                .join(' · ')}
            </dd>
          </>
        )}
        {card.category !== undefined && (
          <>
            <dt>Category</dt>
            <dd>{humanize(card.category)}</dd>
          </>
        )}
        {card.certNumber !== undefined && (
          <>
            <dt>In inventory</dt>
            <dd>
              <Link to={paths.inventory.to(new URLSearchParams({ q: card.certNumber }))}>
                Find this card in inventory
              </Link>
              {listing.isLot && listing.cardCount !== undefined && listing.cardCount > 1 && (
                <> ({listing.cardCount - 1} more in the lot)</>
              )}
            </dd>
          </>
        )}
        {card.url !== undefined && (
          <>
            <dt>Card page</dt>
            <dd>
              <a href={card.url} target="_blank" rel="noreferrer noopener">
                Public card page
              </a>
            </dd>
          </>
        )}
      </dl>
      {listing.images.length > 0 && (
        <ul className="thumbs" aria-label="Photos">
          {listing.images.map((image, index) => (
            <li key={image.src}>
              <img
                src={image.src}
                alt={`Photo ${image.position ?? index + 1} of ${card.title ?? title}`}
                width={96}
                height={96}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
