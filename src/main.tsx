import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createAppParts } from './app/app';
import './app/styles.css';

const parts = createAppParts();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App parts={parts} />
  </StrictMode>,
);
