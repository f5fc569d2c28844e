import { useId, useRef, useState, type FormEvent } from 'react';
import { newIdempotencyKey } from '../../../client';
import { parsePrice } from '../../../client/listing-rules';
import { centsOf, formatCents } from '../../../shared/money';
import { useWriteButton } from '../../../components/write-actions';
import { useUpdateListing } from '../../../api/listings/listing-mutations';
import { usePriceJumpAsk } from '../../../components/price-jump-ask';
import { PriceEndingSelect } from '../../../components/options';
import {
  adjustPrice,
  withEnding,
  type Adjusted,
  type PriceEnding,
} from '../../../shared/price-math';

/** The cuts offered at one tap: what a dealer knocks off for a buyer at the table. */
const QUICK_CUTS = [5n, 10n, 15n] as const;

/** A new price cut in one tap or typed, rounded as the bulk editor rounds, written at once. */
export function NewPrice({
  listingId,
  price,
  onDone,
}: {
  listingId: string;
  price: string;
  onDone(price: string): void;
}) {
  const update = useUpdateListing(listingId);
  const writeButton = useWriteButton();
  const [ending, setEnding] = useState<PriceEnding>('cent');
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const idempotency = useRef<{ key: string; price: string } | null>(null);
  const fieldId = useId();
  const jump = usePriceJumpAsk();
  const endingId = useId();
  // An unreadable price (none sent) makes every cut fall below the bounds, never a wrong price.
  const cents = BigInt(centsOf(price) ?? 0);

  const write = (adjusted: Adjusted) => {
    if (adjusted.error) {
      setProblem(`The new price ${adjusted.error}.`);
      return;
    }
    setProblem(null);
    const next = formatCents(adjusted.cents);
    // A retry of the same price is the same write (its key kept until the price changes).
    if (idempotency.current?.price !== next) {
      idempotency.current = { key: newIdempotencyKey(), price: next };
    }
    update.mutate(
      { patch: { price: next }, idempotencyKey: idempotency.current.key },
      {
        onSuccess: () => {
          setTyped('');
          onDone(next);
        },
      },
    );
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parsePrice(typed);
    if (!parsed.ok) {
      setProblem(`The new price ${parsed.message}.`);
      return;
    }
    const adjusted = withEnding(adjustPrice(cents, { kind: 'set', cents: parsed.value }), ending);
    if (adjusted.error) write(adjusted);
    else jump.check(price, formatCents(adjusted.cents), () => write(adjusted));
  };

  const busy = update.isPending;
  return (
    <form className="new-price" onSubmit={submit} aria-label="New price">
      <div className="quick-cuts" role="group" aria-label="Lower the price">
        {QUICK_CUTS.map((cut) => {
          const adjusted = withEnding(
            adjustPrice(cents, { kind: 'percent', direction: 'lower', hundredths: cut * 100n }),
            ending,
          );
          return (
            <button
              key={String(cut)}
              type="button"
              {...writeButton}
              disabled={writeButton.disabled ?? (busy || adjusted.error !== null)}
              onClick={() => write(adjusted)}
              title={adjusted.explanation}
            >
              −{String(cut)}%&nbsp;→&nbsp;
              <span className="figure">{formatCents(adjusted.cents)}</span>
            </button>
          );
        })}
      </div>
      <div className="new-price-row">
        <div className="new-price-field">
          <label htmlFor={fieldId}>New price</label>
          <input
            id={fieldId}
            inputMode="decimal"
            autoComplete="off"
            value={typed}
            maxLength={20}
            onChange={(event) => setTyped(event.target.value)}
            aria-invalid={problem ? true : undefined}
          />
        </div>
        <div className="new-price-field">
          <label htmlFor={endingId}>Round</label>
          <PriceEndingSelect id={endingId} value={ending} onChange={setEnding} />
        </div>
        <button type="submit" {...writeButton} disabled={writeButton.disabled ?? busy}>
          {busy ? 'Saving…' : 'Set price'}
        </button>
      </div>
      {jump.dialog}
      {problem && (
        <p className="field-error" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}
