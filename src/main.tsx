import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createAppParts } from './app/app';
import { keptDb } from './lib/kept/kept-db';
import './app/styles.css';

// The kept copies' database opens while start-up goes on (a reload reads its catalogue from it
// first thing; opening it takes the browser tens of milliseconds, not spent on this page's time).
keptDb()?.warm();

// Start-up in two tasks, not one: evaluating the modules (the client's schemas, React, the
// router) is one long task of its own; the router (which starts the first page's reads and
// code) and React's first render follow once the browser has had a turn, so no single task
// holds the page for both.
setTimeout(() => {
  const parts = createAppParts();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App parts={parts} />
    </StrictMode>,
  );
}, 0);
