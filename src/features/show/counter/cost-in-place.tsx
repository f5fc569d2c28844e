import { useId, useState, type FormEvent } from 'react';
import { useSetKeptCost } from '../../../api/costs/cost-queries';
import { ErrorBanner } from '../../../components/error-banner';
import { centsOf, formatCents } from '../../../shared/money';

/** The card's cost set in place: the API has no cost write, so our server keeps the seller's. */
export function CostInPlace({ itemId }: { itemId: string }) {
  const setCost = useSetKeptCost(itemId);
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const fieldId = useId();
  const noteId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // As a seller types it ("120", "$1,250.5"), at most 1,000,000 dollars.
    const cents = centsOf(typed, { typed: true, max: 100_000_000 });
    if (cents === undefined) {
      setProblem('The cost must be an amount like 120.50, at most $1,000,000.');
      return;
    }
    setProblem(null);
    setSaved(false);
    setCost.mutate(formatCents(cents), {
      onSuccess: () => {
        setTyped('');
        setSaved(true);
      },
    });
  };

  return (
    <div className="cost-in-place">
      <form className="cost-form" onSubmit={submit} aria-label="Cost" aria-describedby={noteId}>
        <div className="new-price-field">
          <label htmlFor={fieldId}>Cost ($)</label>
          <input
            id={fieldId}
            inputMode="decimal"
            autoComplete="off"
            maxLength={20}
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            aria-invalid={problem ? true : undefined}
          />
        </div>
        <button type="submit" disabled={setCost.isPending}>
          {setCost.isPending ? 'Saving…' : 'Save'}
        </button>
      </form>
      <p id={noteId} className="muted cost-note">
        Kept by Slabdesk: the marketplace&apos;s API has no way to set a cost.
      </p>
      {problem && (
        <p className="field-error" role="alert">
          {problem}
        </p>
      )}
      {saved && !setCost.isPending && (
        <p className="muted" role="status">
          Cost saved.
        </p>
      )}
      {setCost.error && <ErrorBanner error={setCost.error} title="The cost was not saved" />}
    </div>
  );
}
