import { useRef, useState } from 'react';
import { priceJump } from '../lib/price-asks';
import { ConfirmDialog } from './confirm-dialog';

/** Asks once before saving a price over 3 times or under a third of the last; no saves nothing. */
export function usePriceJumpAsk() {
  const [asking, setAsking] = useState<{ words: string; save(): void } | null>(null);
  // A price the seller said yes to is not asked about again (a save refused for another field).
  const agreed = useRef<string | null>(null);
  const check = (last: string | null | undefined, next: string, save: () => void) => {
    const words = next === agreed.current ? null : priceJump(last, next);
    const agree = () => {
      agreed.current = next;
      save();
    };
    if (words) setAsking({ words, save: agree });
    else save();
  };
  const dialog = (
    <ConfirmDialog
      open={asking !== null}
      title="Save this price?"
      confirmLabel="Save it"
      cancelLabel="Don't save"
      onConfirm={() => {
        setAsking(null);
        asking?.save();
      }}
      onCancel={() => setAsking(null)}
    >
      <p>{asking?.words}, its price now. Save it?</p>
    </ConfirmDialog>
  );
  return { check, dialog };
}
