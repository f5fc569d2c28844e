import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createAppParts } from './app/app';
import './app/styles.css';

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
