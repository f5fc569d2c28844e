import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { CHUNK_MAP_PATH, type ChunkMap } from './src/server/chunk-map.ts';

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
 * The listings page and the pieces it draws with (the table, its views, the catalogue's filters,
 * the margin column) in one chunk: otherwise each is a chunk of its own (shared with some other
 * page), and opening the page fetched fifteen files of 1 to 3 KB, most after a round trip (a
 * phone's network). Only these modules, not what they import: the first load's modules stay
 * where they are. Other pages that draw a table load this chunk too (about 9 KB gzipped); what
 * the overview (the first page) uses is left out of it and of the next group.
 */
const LISTINGS_PAGE = [
  String.raw`src/features/listings/(listings-page|listing-columns|age-filter-field|catalogue-(filters|load-state)|use-catalogue|margin-column)\.`,
  String.raw`src/lib/(saved-views|use-search-param-state)\.`,
  String.raw`src/lib/sales/(listing-age|fee-rate|use-margin-basis|margin)\.`,
  String.raw`src/components/(table-views|use-media-query|use-table-keyboard|use-windowed-rows)\.`,
  String.raw`src/components/(data-table|freshness|field-value|status-pill)\.`,
];

/**
 * What the catalogue's route loader runs (its query, its rows): a chunk of its own, so the read
 * starts beside the page's chunk instead of waiting for it.
 */
const CATALOGUE_READ = [
  String.raw`src/features/listings/catalogue-(row|query)\.`,
  String.raw`src/lib/kept/kept-query\.`,
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
 * Writes which chunk holds each of the dashboard's own modules, and what each chunk imports
 * (`.vite/chunk-map.json`, see src/server/route-preloads): the server names a route's chunks in
 * its page. Vite's manifest names only the chunks that are an import's target, not the modules
 * the chunk groups below gather.
 */
function chunkMap(): Plugin {
  const root = fileURLToPath(new URL('.', import.meta.url));
  return {
    name: 'slabdesk-chunk-map',
    apply: 'build',
    generateBundle(_options, bundle) {
      const map: ChunkMap = { modules: {}, chunks: {} };
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        map.chunks[chunk.fileName] = { entry: chunk.isEntry, imports: chunk.imports };
        for (const id of chunk.moduleIds) {
          if (id.startsWith(`${root}src/`)) map.modules[id.slice(root.length)] = chunk.fileName;
        }
      }
      this.emitFile({ type: 'asset', fileName: CHUNK_MAP_PATH, source: JSON.stringify(map) });
    },
  };
}

/**
 * Lets the bundler drop the router package's parts the dashboard does not use. The package
 * builds its components as `var Link = React.forwardRef(...)` followed by
 * `Link.displayName = "Link"`: a call the bundler cannot prove free of side effects, and an
 * assignment to it, so every component stays in the bundle whether used or not (about 5 KB
 * gzipped: links that prefetch route modules, forms, server components). This marks those calls
 * pure and drops the names (they serve only React's developer tools).
 */
export function treeShakeRouter(): Plugin {
  return {
    name: 'slabdesk-tree-shake-router',
    apply: 'build',
    transform(code, id) {
      if (!/node_modules\/react-router\/dist\//.test(id)) return null;
      const shakable = code
        .replace(/^[A-Za-z_$][\w$]*\.displayName = "[^"\n]*";$/gm, '')
        .replace(
          /^(var [\w$]+ = )((?:React\d*\.(?:forwardRef|createContext|memo)|Symbol)\()/gm,
          '$1/* @__PURE__ */ $2',
        );
      return { code: shakable, map: null };
    },
  };
}

/**
 * The dashboard's bundle. The dev server's API proxy and the embedded sandbox are added by
 * `npm run dev` (src/server/dev.ts), which runs Vite in middleware mode; this file holds only
 * what the browser bundle needs.
 */
export default defineConfig(({ command }) => ({
  // The router package's exports name only its development build (warnings and checks); the
  // bundle takes its production build, the same code without them.
  ...(command === 'build'
    ? {
        resolve: {
          alias: [
            {
              find: /^react-router$/,
              replacement: fileURLToPath(
                new URL('node_modules/react-router/dist/production/index.mjs', import.meta.url),
              ),
            },
          ],
        },
      }
    : {}),
  plugins: [react(), inlineEntryStylesheet(), treeShakeRouter(), chunkMap()],
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
          groups: [
            { name: 'common', test: new RegExp(SHARED.join('|')) },
            {
              name: 'catalogue-read',
              test: new RegExp(CATALOGUE_READ.join('|')),
              includeDependenciesRecursively: false,
            },
            {
              name: 'listings-page',
              test: new RegExp(LISTINGS_PAGE.join('|')),
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
}));
