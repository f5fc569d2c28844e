/**
 * Registers the service worker (src/sw.ts) in a built page: it keeps the app's code and the last
 * page, so the dashboard opens with no network. Not in development (Vite serves the modules).
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = () =>
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
  if (document.readyState === 'complete') void register();
  else window.addEventListener('load', () => void register(), { once: true });
}
