import { Link } from 'react-router';
import { FieldValue } from '../../../components/field-value';
import { humanize } from '../../../lib/format';
import { paths } from '../../../shared/paths';
import type { ListingView } from './listing-view';
import { Fact } from '../../../components/fact';

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
        <FieldValue label="Title" value={card.title} unreadable={unreadable('card.title')}>
          {(text) => text}
        </FieldValue>
        {card.player !== undefined && <Fact label="Player">{card.player ?? '—'}</Fact>}
        <Fact label="Grade">
          {card.grader ?? '?'} {card.grade ?? '?'}
        </Fact>
        <FieldValue
          label="Cert number"
          value={card.certNumber}
          unreadable={unreadable('card.cert_number')}
        >
          {(cert) => <code>{cert}</code>}
        </FieldValue>
        {(card.year !== undefined || card.set !== undefined) && (
          <Fact label="Year / set">
            {[card.year ?? '—', card.set, card.variant]
              .filter((part) => part !== undefined)
              .join(' · ')}
          </Fact>
        )}
        {card.category !== undefined && <Fact label="Category">{humanize(card.category)}</Fact>}
        {card.certNumber !== undefined && (
          <Fact label="In inventory">
            <Link to={paths.inventory.to(new URLSearchParams({ q: card.certNumber }))}>
              Find this card in inventory
            </Link>
            {listing.isLot && listing.cardCount !== undefined && listing.cardCount > 1 && (
              <> ({listing.cardCount - 1} more in the lot)</>
            )}
          </Fact>
        )}
        {card.url !== undefined && (
          <Fact label="Card page">
            <a href={card.url} target="_blank" rel="noreferrer noopener">
              Public card page
            </a>
          </Fact>
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
