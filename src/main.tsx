import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createAppParts, type AppRouter } from './app/app';
import { keptDb } from './api/kept/kept-db';
import { checkKeptDataAtOpen } from './app/session-end';
import './app/styles.css';
import './app/figures.css';

// The kept copies' database opens while start-up goes on (a reload reads its catalogue from it
// first thing; opening it takes the browser tens of milliseconds, not spent on this page's time).
keptDb()?.warm();

// The number and date formats' first making (their locale data) in a worker, off the page's thread.
if (typeof Worker === 'function') {
  const warm = new Worker(new URL('./lib/warm-formats.worker.ts', import.meta.url), {
    type: 'module',
  });
  warm.onmessage = warm.onerror = () => warm.terminate();
}

/** Resolves once the router's first navigation is done (the first page's chunk and loader, or its error). */
const initialized = (router: AppRouter) =>
  new Promise<void>((resolve) => {
    if (router.state.initialized) return resolve();
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      resolve();
    });
  });

// Start-up in steps, no one of them long: evaluating the modules is one task; the router (which
// starts the first page's reads and code) follows once the browser has had a turn; React's first
// render waits for the first page, while the frame index.html painted stays, and draws the frame
// and the page together in a transition, in slices, not a frame task and then a page task.
// First, before anything is drawn: the account's data goes if its session ended or it went unseen.
const checked = checkKeptDataAtOpen().catch(() => undefined);
setTimeout(() => {
  void checked.then(start);
}, 0);

function start() {
  const parts = createAppParts();
  void initialized(parts.router).then(() => {
    // Made once the first page is in, not in the router's task (its listeners take a while).
    const root = createRoot(document.getElementById('root')!);
    startTransition(() =>
      root.render(
        <StrictMode>
          <App parts={parts} />
        </StrictMode>,
      ),
    );
    // Off the first load: the service worker's registration.
    void import('./app/service-worker').then((module) =>
      module.registerServiceWorker(parts.queryClient),
    );
  });
}
