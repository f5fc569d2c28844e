import { useEffect } from 'react';
import { preloadBarcodeEngine } from '../components/scanner/barcode-engine';

/** The Scan dialog's chunk (the camera, the reader's loader, the stack): loaded once. */
export const loadScanDialog = () => import('../features/show/scan/scan-dialog');

/**
 * Gets Scan ready before it is pressed: the dialog's code, and the reader with its wasm compiled
 * (the seller then waits only for the camera). Loaded once; a failure is left to the press.
 */
export function preloadScan(): void {
  loadScanDialog().catch(() => undefined);
  preloadBarcodeEngine();
}

/** A phone or tablet (a touch screen is the main pointer, or there is any): the scanning device. */
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
 * On a phone, Scan is got ready in the first idle moment after the page loads (at a desk it
 * waits for the pointer on the button: the first load stays as light as it was).
 */
export function usePreloadScanOnPhones(): void {
  useEffect(() => {
    if (!touchDevice() || savesData()) return;
    if (typeof requestIdleCallback === 'function') {
      const handle = requestIdleCallback(preloadScan, { timeout: 3000 });
      return () => cancelIdleCallback(handle);
    }
    const timer = setTimeout(preloadScan, 1000);
    return () => clearTimeout(timer);
  }, []);
}
