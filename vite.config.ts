import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * Modules every page shares (paths relative to the repository). Writes (`useMutation` and its
 * observer) are left to the pages that write: the overview, the first page, never loads them.
 */
const SHARED = [
  String.raw`node_modules/@tanstack/(query-core|react-query)/(?!build/modern/(useMutation|mutationObserver)\.js)`,
  String.raw`src/lib/(api-context|connection-query|idb-requests|format)\.`,
  String.raw`src/lib/sales/(money|order-money|sales-series)\.`,
  String.raw`src/components/(error-banner|set-aside-notice|time-left)\.`,
];

/**
 * The dashboard's bundle. The dev server's API proxy and the embedded sandbox are added by
 * `npm run dev` (src/server/dev.ts), which runs Vite in middleware mode; this file holds only
 * what the browser bundle needs.
 */
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    sourcemap: true,
    // Every browser the dashboard supports preloads modules itself: no polyfill in the first load.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // The pieces every page shares (the query library, its context, formatting, the money
        // helpers, the error banner) in one chunk instead of nine small ones: the first load
        // fetches one file, and gzip compresses it as one text (about 2 KB less).
        codeSplitting: {
          groups: [{ name: 'common', test: new RegExp(SHARED.join('|')) }],
        },
      },
    },
  },
});
