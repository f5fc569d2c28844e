import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { whenReadsSettle } from '../api/first-reads';

/** The Scan dialog's chunk (the camera, the reader's loader, the stack): loaded once. */
export const loadScanDialog = () => import('../features/show/scan/scan-dialog');

/** Loads the Scan dialog and compiles the reader's wasm ahead; a failure is left to the press. */
export function preloadScan(): void {
  loadScanDialog().catch(() => undefined);
  // The reader's loader is the scanner's, not the shell's: fetched with it.
  import('../components/scanner/barcode-engine')
    .then((engine) => engine.preloadBarcodeEngine())
    .catch(() => undefined);
}

/** A touch screen (a phone or tablet: the scanning device). */
function touchDevice(): boolean {
  return (
    (typeof matchMedia === 'function' && matchMedia('(any-pointer: coarse)').matches) ||
    navigator.maxTouchPoints > 0
  );
}

/** Where the seller asked to save data, nothing is fetched before it is needed. */
const savesData = () =>
  (navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData === true;

/**
 * Preloads Scan on a show's pages once their reads are in (the reader's 360 KB wasm does not share
 * a phone's slow link with them), elsewhere at a touch screen's first touch.
 */
export function usePreloadScan(onShowPages: boolean): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (savesData()) return;
    if (onShowPages) return whenReadsSettle(queryClient, preloadScan);
    if (!touchDevice()) return;
    const touched = (event: PointerEvent) => {
      if (event.pointerType === 'mouse') return;
      window.removeEventListener('pointerdown', touched, true);
      preloadScan();
    };
    window.addEventListener('pointerdown', touched, true);
    return () => window.removeEventListener('pointerdown', touched, true);
  }, [onShowPages, queryClient]);
}
