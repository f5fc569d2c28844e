import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createAppParts } from './app/app';
import { keptDb } from './lib/kept/kept-db';
import { firstPageSettled } from './lib/router/router';
import './app/styles.css';

/**
 * How long the first draw waits for the first page's code before it draws the frame without it
 * (the frame index.html painted already, so nothing on the screen changes meanwhile).
 */
const FIRST_PAGE_PATIENCE_MS = 3000;

// The kept copies' database opens while start-up goes on (a reload reads its catalogue from it
// first thing; opening it takes the browser tens of milliseconds, not spent on this page's time).
keptDb()?.warm();

// Start-up in steps, no one of them long: evaluating the modules (the client's schemas, React,
// the router) is one task; the router (which starts the first page's reads and code) follows
// once the browser has had a turn; React's first render waits for the first page (its code is
// named in the page, so it is mostly in already) and draws the frame and the page together, in
// a transition: in slices between which the browser answers input and reads the API's answers,
// not in one long task for the frame and another for the page.
setTimeout(() => {
  const parts = createAppParts();
  const root = createRoot(document.getElementById('root')!);
  void firstPageSettled(parts.router, FIRST_PAGE_PATIENCE_MS).then(() =>
    startTransition(() =>
      root.render(
        <StrictMode>
          <App parts={parts} />
        </StrictMode>,
      ),
    ),
  );
}, 0);
