import type { QueryClient } from '@tanstack/react-query';
import { whenReadsSettle } from '../api/first-reads';

/** Registers the service worker in a built page; once idle, it keeps the files this page did not use. */
export function registerServiceWorker(queryClient: QueryClient): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = async () => {
    await navigator.serviceWorker.register('/sw.js', { scope: '/' });
    await new Promise<void>((resolve) => whenReadsSettle(queryClient, resolve));
    (await navigator.serviceWorker.ready).active?.postMessage({ type: 'page-idle' });
  };
  if (document.readyState === 'complete') register().catch(() => undefined);
  else window.addEventListener('load', () => register().catch(() => undefined), { once: true });
}
