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

/** Registers the service worker in a built page; once idle, it keeps the files this page did not use. */
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
