import { defineConfig, type Plugin } from 'vite';
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
 * Writes the entry's stylesheet into the page as a `<style>` (about 11 KB, 4 KB gzipped): the
 * page then paints its frame without first fetching a render-blocking file (a round trip on a
 * phone's network). The server allows the inline style by its hash (see security-headers).
 */
function inlineEntryStylesheet(): Plugin {
  return {
    name: 'slabdesk-inline-entry-stylesheet',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const bundle = context.bundle;
        if (!bundle) return html;
        return html.replace(
          /<link rel="stylesheet"[^>]* href="\/(assets\/[^"]+\.css)"[^>]*>/g,
          (tag, file: string) => {
            const asset = bundle[file];
            if (asset?.type !== 'asset') return tag;
            const css = String(asset.source);
            return css.includes('</style') ? tag : `<style>${css}</style>`;
          },
        );
      },
    },
  };
}

/**
 * The dashboard's bundle. The dev server's API proxy and the embedded sandbox are added by
 * `npm run dev` (src/server/dev.ts), which runs Vite in middleware mode; this file holds only
 * what the browser bundle needs.
 */
export default defineConfig({
  plugins: [react(), inlineEntryStylesheet()],
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
