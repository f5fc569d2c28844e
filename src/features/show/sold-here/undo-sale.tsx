import { useState } from 'react';
import { useVoidSale } from '../../../api/shows/show-queries';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ErrorBanner } from '../../../components/error-banner';
import { FormField } from '../../../components/form-field';
import { useWriteButton } from '../../../components/write-actions';
import { paidWords } from '../../../shared/show-tenders';
import type { LedgerEntry } from '../../../api/shows/show-api';

/** The sale an undo names. */
export type UndoableSale = Pick<
  LedgerEntry,
  'key' | 'showKey' | 'title' | 'priceCents' | 'tenders'
>;

/** Undo a sale (online only): the ledger keeps it as undone, and the slab may sell again. */
export function UndoSale({ sale, onUndone }: { sale: UndoableSale; onUndone?(): void }) {
  const undo = useVoidSale();
  const writeButton = useWriteButton();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const paid = paidWords(sale.priceCents, sale.tenders);
  return (
    <>
      <button
        type="button"
        className="button"
        aria-label={`Undo this sale: ${sale.title}`}
        {...writeButton}
        onClick={() => {
          undo.reset();
          setOpen(true);
        }}
      >
        Undo this sale
      </button>
      {undo.error && !open && <ErrorBanner error={undo.error} title="The sale was not undone" />}
      <ConfirmDialog
        open={open}
        title="Undo this sale?"
        confirmLabel="Undo the sale"
        cancelLabel="Keep the sale"
        danger
        busy={undo.isPending}
        onCancel={() => setOpen(false)}
        onConfirm={() =>
          undo.mutate(
            { showKey: sale.showKey, entryKey: sale.key, reason: reason.trim() || null },
            {
              onSuccess: () => {
                setOpen(false);
                onUndone?.();
              },
              onError: () => setOpen(false),
            },
          )
        }
      >
        <p>
          Undo the {paid} sale of {sale.title}? The ledger keeps it as undone; the listing stays off
          the marketplace until you reactivate it.
        </p>
        <FormField label="Why (optional)">
          {(control) => (
            <input
              {...control}
              value={reason}
              maxLength={300}
              onChange={(event) => setReason(event.target.value)}
            />
          )}
        </FormField>
      </ConfirmDialog>
    </>
  );
}
