import { useEffect, useState } from 'react';
import { CameraScanner } from '../../components/scanner/camera-scanner';
import { scanFeedback } from '../../components/scanner/scan-feedback';
import { certKey } from '../../api/listings/cert-lookup';
import { readKept, sessionStore, writeKept } from '../../api/local-store';
import type { SlabFactsByListing } from '../../api/listings/slab-facts';
import type { KeptOrder } from '../../api/orders/order-queries';
import { countOf } from '../../lib/format';
import { readScan } from '../../lib/cert-scan';

/** One slab ticked off: when, and the cert the label gave. */
export interface PackedSlab {
  at: string;
  cert: string;
}
export type PackedSlabs = ReadonlyMap<string, PackedSlab>;

/** The slab an order ships, in the seller's words: the card's title and its cert. */
export function orderSlab(order: KeptOrder, slabs: SlabFactsByListing | undefined) {
  const line = order.line_items?.[0];
  const facts = slabs?.get(line?.product_id ?? '');
  return {
    title: facts?.title ?? line?.title ?? order.name ?? 'this order',
    cert: line?.sku ?? facts?.cert,
  };
}

/** What one scan does to the box: ticks an order off, or is refused in words. */
export type PackOutcome =
  { kind: 'packed'; orderId: string; message: string } | { kind: 'refused'; message: string };

/** A scanned slab takes an unticked open order of the box; else refused, naming the card needed. */
export function checkPackedSlab(
  text: string,
  orders: readonly KeptOrder[],
  packed: PackedSlabs,
  slabs: SlabFactsByListing | undefined,
): PackOutcome {
  const next = orders.find((order) => !packed.has(order.id));
  const nextSlab = next ? orderSlab(next, slabs) : undefined;
  const nextWords =
    nextSlab && `${nextSlab.title}${nextSlab.cert ? `, cert ${nextSlab.cert}` : ''}`;
  const expected = nextWords ? ` This order is ${nextWords}.` : '';
  const reading = readScan(text);
  if (reading.kind === 'other') {
    return { kind: 'refused', message: `Read “${reading.text}”: not a cert number.${expected}` };
  }
  const key = certKey(reading.cert);
  const owner = orders.find((order) => certKey(orderSlab(order, slabs).cert) === key);
  if (owner && packed.has(owner.id)) {
    return {
      kind: 'refused',
      message: `Cert ${reading.cert} is ticked off already (${orderSlab(owner, slabs).title}).`,
    };
  }
  if (owner) {
    return {
      kind: 'packed',
      orderId: owner.id,
      message: `Right card: ${orderSlab(owner, slabs).title}, cert ${reading.cert}.`,
    };
  }
  const needed = nextWords ? `this order is ${nextWords}` : 'every order of this box is checked';
  return {
    kind: 'refused',
    message: `Wrong card: ${needed}. The slab scanned, cert ${reading.cert}, is in no order of this box.`,
  };
}

const storageKey = (orderIds: readonly string[]) => `slabdesk.packed.${orderIds.join(',')}`;

/** The ticks of this box, kept in the tab so a reload or a print preview loses none. */
export function usePackedSlabs(orderIds: readonly string[]) {
  const key = storageKey(orderIds);
  const [packed, setPacked] = useState<PackedSlabs>(() => {
    const saved = readKept<[string, PackedSlab][]>(key, sessionStore());
    return new Map(Array.isArray(saved) ? saved : []);
  });
  // Storage full or refused: the ticks stay on screen for this visit.
  useEffect(() => writeKept(key, [...packed], sessionStore()), [key, packed]);
  return [packed, setPacked] as const;
}

/** Pack by scanning each slab's label: the right one ticked off, a wrong one refused loudly. */
export function PackCheck({
  orders,
  slabs,
  packed,
  onPacked,
}: {
  orders: readonly KeptOrder[];
  slabs: SlabFactsByListing | undefined;
  packed: PackedSlabs;
  onPacked(orderId: string, slab: PackedSlab): void;
}) {
  const [open, setOpen] = useState(false);
  const [outcome, setOutcome] = useState<PackOutcome | null>(null);
  const left = orders.filter((order) => !packed.has(order.id)).length;

  const onRead = (text: string) => {
    const result = checkPackedSlab(text, orders, packed, slabs);
    setOutcome(result);
    scanFeedback(result.kind === 'packed' ? 'ok' : 'refused');
    if (result.kind === 'packed') {
      const reading = readScan(text);
      onPacked(result.orderId, {
        at: new Date().toISOString(),
        cert: reading.kind === 'cert' ? reading.cert : text,
      });
    }
  };

  return (
    <section className="pack-check no-print" aria-labelledby="pack-check-heading">
      <div className="page-head">
        <h2 id="pack-check-heading">Check by scanning</h2>
        <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? 'Stop scanning' : 'Scan slabs into the box'}
        </button>
      </div>
      <p role="status">
        {left === 0
          ? `All ${countOf(orders.length, 'slab')} checked: the box is ready.`
          : `${countOf(orders.length - left, 'slab')} of ${orders.length} checked.`}
      </p>
      {outcome && (
        <p
          className={`banner ${outcome.kind === 'packed' ? 'banner-ok' : 'banner-error'}`}
          role={outcome.kind === 'packed' ? 'status' : 'alert'}
        >
          {outcome.message}
        </p>
      )}
      {open && <CameraScanner onRead={onRead} typeLabel="Or type the cert on the slab" />}
    </section>
  );
}
