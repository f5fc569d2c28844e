import type { QueryClient } from '@tanstack/react-query';
import { whenIdle } from './after-first-paint';

/** Resolves once no read is in flight and the browser has an idle moment. */
const pageIdle = (queryClient: QueryClient) =>
  new Promise<void>((resolve) => {
    const whenQuiet = () => {
      if (queryClient.isFetching() === 0) {
        whenIdle(() => (queryClient.isFetching() === 0 ? resolve() : whenQuiet()));
        return;
      }
      const stop = queryClient.getQueryCache().subscribe(() => {
        if (queryClient.isFetching() > 0) return;
        stop();
        whenQuiet();
      });
    };
    whenQuiet();
  });

/**
 * Registers the service worker (src/sw.ts) in a built page: it keeps the app's code and the last
 * page, so the dashboard opens with no network. Once the page is idle it tells the worker, which
 * then keeps the files this page did not use. Not in development (Vite serves the modules).
 */
export function registerServiceWorker(queryClient: QueryClient): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = async () => {
    await navigator.serviceWorker.register('/sw.js', { scope: '/' });
    await pageIdle(queryClient);
    (await navigator.serviceWorker.ready).active?.postMessage({ type: 'page-idle' });
  };
  if (document.readyState === 'complete') register().catch(() => undefined);
  else window.addEventListener('load', () => register().catch(() => undefined), { once: true });
}
