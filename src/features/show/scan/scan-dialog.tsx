import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../../shared/paths';
import { CameraScanner } from '../../../components/scanner/camera-scanner';
import { scanFeedback } from '../../../components/scanner/scan-feedback';
import { Figure, Money } from '../../../components/figure';
import { useApiClient } from '../../../api/api-context';
import { catalogueQuery } from '../../../api/listings/catalogue-query';
import { certKey, matchCert } from '../../../api/listings/cert-lookup';
import { inventoryItemsQuery } from '../../../api/inventory/inventory-queries';
import { ordersQuery } from '../../../api/orders/order-queries';
import { countOf } from '../../../lib/format';
import { readScan } from '../../../lib/cert-scan';
import './scan-dialog.css';

type Mode = 'one' | 'stack';
const MODES: readonly [Mode, string][] = [
  ['one', 'One slab'],
  ['stack', 'A stack'],
];

interface StackEntry {
  cert: string;
  key: string;
}

const FOCUSABLE = 'button:not([disabled]), input, select, a[href], [tabindex="0"]';

/** Scan one slab to its counter view, or a stack of them (repeats ignored) into the bulk editor. */
export default function ScanDialog({ onClose }: { onClose(): void }) {
  const titleId = useId();
  const navigate = useNavigate();
  const client = useApiClient();
  const queryClient = useQueryClient();
  const dialogRef = useRef<HTMLDivElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);
  const [mode, setMode] = useState<Mode>('one');
  const [stack, setStack] = useState<StackEntry[]>([]);
  const stackKeys = useRef(new Set<string>());
  const [note, setNote] = useState<string | null>(null);
  // The stack's slabs are found in the kept rows (the counter view reads the same).
  const catalogue = useQuery(catalogueQuery(client, queryClient));
  const items = useQuery(inventoryItemsQuery(client, queryClient));
  const orders = useQuery(ordersQuery(client, queryClient));

  useEffect(() => {
    // The counter view's code while the camera starts: a read opens it at once.
    import('../counter/counter-page').catch(() => undefined);
  }, []);

  useEffect(() => {
    const before = document.activeElement;
    returnTo.current = before instanceof HTMLElement ? before : null;
    dialogRef.current?.querySelector<HTMLElement>('input')?.focus();
    return () => returnTo.current?.focus();
  }, []);

  const resolved = useMemo(
    () =>
      stack.map((entry) => ({
        ...entry,
        listing: matchCert(
          entry.cert,
          catalogue.data?.rows ?? [],
          items.data?.rows ?? [],
          orders.data?.rows ?? [],
        ).listing,
      })),
    [stack, catalogue.data, items.data, orders.data],
  );
  const listingIds = [...new Set(resolved.flatMap((row) => (row.listing ? [row.listing.id] : [])))];

  const onRead = (text: string) => {
    const reading = readScan(text);
    if (reading.kind === 'other') {
      setNote(`Read “${reading.text}”: not a cert number this dashboard knows.`);
      if (mode === 'stack') scanFeedback('refused');
      return;
    }
    if (mode === 'one') {
      onClose();
      void navigate(paths.showCert.to(reading.cert, reading.grader));
      return;
    }
    const key = certKey(reading.cert);
    if (stackKeys.current.has(key)) {
      setNote(`Cert ${reading.cert} is in the stack already.`);
      return;
    }
    stackKeys.current.add(key);
    scanFeedback('ok');
    setNote(`Added cert ${reading.cert}.`);
    setStack((current) => [...current, { cert: reading.cert, key }]);
  };

  const openBulk = () => {
    onClose();
    void navigate(paths.bulkEdit.to({ ids: listingIds }));
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onClose();
      return;
    }
    if (event.key !== 'Tab') return;
    // Focus stays in the dialog.
    const stops = [...(dialogRef.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])];
    const first = stops[0];
    const last = stops.at(-1);
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <div className="dialog-backdrop scan-backdrop">
      <div
        ref={dialogRef}
        className="dialog scan-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onKeyDown={onKeyDown}
      >
        <div className="scan-head">
          <h2 id={titleId}>{mode === 'one' ? 'Scan a slab' : 'Scan a stack'}</h2>
          <button type="button" onClick={onClose}>
            Close
          </button>
        </div>
        <fieldset className="scan-mode">
          <legend className="visually-hidden">What a scan does</legend>
          {MODES.map(([value, words]) => (
            <label key={value}>
              <input
                type="radio"
                name="scan-mode"
                checked={mode === value}
                onChange={() => setMode(value)}
              />{' '}
              {words}
            </label>
          ))}
        </fieldset>
        <CameraScanner
          onRead={onRead}
          typeLabel={mode === 'one' ? 'Or type the cert number' : 'Or type a cert to add it'}
        />
        <p className="scan-note" role="status">
          {note}
        </p>
        {mode === 'stack' && (
          <div className="scan-stack">
            <h3>
              In the stack: <Figure kind="count">{countOf(stack.length, 'slab')}</Figure>
            </h3>
            {resolved.length > 0 && (
              <ol aria-label="Scanned slabs">
                {resolved.map((row) => (
                  <li key={row.key}>
                    <Figure kind="cert">cert {row.cert}</Figure>{' '}
                    {row.listing ? (
                      <>
                        {row.listing.title} · <Money amount={row.listing.price} />
                      </>
                    ) : (
                      <span className="muted">
                        {catalogue.data?.complete ? 'not in your listings' : 'looking…'}
                      </span>
                    )}
                  </li>
                ))}
              </ol>
            )}
            <div className="dialog-actions">
              <button
                type="button"
                disabled={stack.length === 0}
                onClick={() => {
                  setStack([]);
                  stackKeys.current.clear();
                  setNote('The stack is empty.');
                }}
              >
                Clear
              </button>
              <button
                type="button"
                className="primary"
                disabled={listingIds.length === 0}
                onClick={openBulk}
              >
                Open {countOf(listingIds.length, 'listing')} in the bulk editor
              </button>
            </div>
          </div>
        )}
      </div>
    </div>
  );
}
