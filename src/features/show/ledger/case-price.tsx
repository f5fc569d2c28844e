import { useState } from 'react';
import type { ListingRead } from '../../../client';
import { useOutboxItems } from '../../../api/outbox/outbox';
import { useSetPriceAtShow } from '../../../api/shows/show-queries';
import { useWriteButton } from '../../../components/write-actions';
import { parsePrice } from '../../../client/listing-rules';
import { formatCents } from '../../../shared/money';
import { usePriceJumpAsk } from '../../../components/price-jump-ask';

/** A new price at the table via the outbox; a conflict if the listing sold or changed meanwhile. */
export function CasePrice({ listing }: { listing: ListingRead }) {
  const setPrice = useSetPriceAtShow();
  const writeButton = useWriteButton();
  const writes = useOutboxItems();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();
  const jump = usePriceJumpAsk();
  const waiting = writes.some(
    (item) =>
      item.kind === 'set-price' &&
      item.listingId === listing.id &&
      (item.state === 'waiting' || item.state === 'sending'),
  );
  const label = `New price for ${listing.title ?? 'this listing'}`;
  return (
    <form
      className="case-price"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const price = parsePrice(value);
        if (!price.ok) {
          setError('Enter a price from 10 to 1,000,000');
          return;
        }
        setError(undefined);
        const next = formatCents(price.value);
        jump.check(listing.price, next, () => {
          setValue('');
          void setPrice(listing, next);
        });
      }}
    >
      <label>
        <span className="visually-hidden">{label}</span>
        <input
          inputMode="decimal"
          placeholder="New price"
          value={value}
          aria-invalid={Boolean(error)}
          onChange={(event) => setValue(event.target.value)}
        />
      </label>
      <button type="submit" {...writeButton} aria-label={`Set ${label.toLowerCase()}`}>
        Set new price
      </button>
      {waiting && <span className="muted"> New price waiting to be sent</span>}
      {error && <span className="field-error">{error}</span>}
      {jump.dialog}
    </form>
  );
}
