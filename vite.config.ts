import { defineConfig, type Plugin } from 'vite';
import type { OutputAsset, OutputChunk } from 'rolldown';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { VitePWA } from 'vite-plugin-pwa';
import { visualizer } from 'rollup-plugin-visualizer';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

/**
 * Writes the entry's stylesheet into the page as a `<style>`: the page paints its frame without
 * first fetching a render-blocking file. Touches only our own index.html, never a dependency.
 * The server allows the inline style by its hash (see security-headers).
 */
function inlineEntryStylesheet(): Plugin {
  return {
    name: 'slabdesk-inline-entry-stylesheet',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
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

/** An entry of the worker's file list, as workbox-build gives it. */
interface FileEntry {
  url: string;
  revision: string | null;
  size: number;
}

/** The entry chunk and every chunk it imports statically: what the first page loads before it runs. */
function firstLoadChunks(bundle: Record<string, OutputChunk | OutputAsset>): OutputChunk[] {
  const entry = Object.values(bundle).find(
    (file): file is OutputChunk => file.type === 'chunk' && file.isEntry,
  );
  const seen = new Map<string, OutputChunk>();
  const visit = (chunk: OutputChunk | undefined) => {
    if (!chunk || seen.has(chunk.fileName)) return;
    seen.set(chunk.fileName, chunk);
    for (const name of chunk.imports) visit(bundle[name] as OutputChunk | undefined);
  };
  visit(entry);
  return [...seen.values()];
}

/**
 * Scan: its dialog, the reader's loader, the polyfill and the wasm, with what each imports and
 * its stylesheet (a scan at a show works offline even before the first page's idle moment).
 */
function scanFiles(bundle: Record<string, OutputChunk | OutputAsset>): string[] {
  const files = new Set<string>();
  const visit = (chunk: OutputChunk | undefined) => {
    if (!chunk || files.has(chunk.fileName)) return;
    files.add(chunk.fileName);
    for (const css of chunk.viteMetadata?.importedCss ?? []) files.add(css);
    for (const name of chunk.imports) visit(bundle[name] as OutputChunk | undefined);
  };
  for (const file of Object.values(bundle)) {
    if (file.type === 'asset') {
      if (file.fileName.endsWith('.wasm')) files.add(file.fileName);
    } else if (
      file.moduleIds.some((id) =>
        /node_modules\/(zxing-wasm|barcode-detector)\/|scanner\/barcode-engine|show\/scan\/scan-dialog/.test(
          id,
        ),
      )
    ) {
      visit(file);
    }
  }
  return [...files];
}

/**
 * The files the service worker keeps at install: the first load and Scan with its reader, and
 * the files outside `assets/` (icons, manifest). The rest it keeps as the page uses them, and
 * once the page is idle (src/sw.ts). Filled by the bundle, read by the worker's manifest.
 */
function shellFiles() {
  const shell = new Set<string>();
  const plugin: Plugin = {
    name: 'slabdesk-shell-files',
    apply: 'build',
    generateBundle(_options, bundle) {
      for (const chunk of firstLoadChunks(bundle)) shell.add(chunk.fileName);
      for (const file of scanFiles(bundle)) shell.add(file);
    },
  };
  // src/sw.ts reads `shell`.
  const mark = (entries: FileEntry[]) => ({
    manifest: entries.map((entry) => ({
      ...entry,
      shell: shell.has(entry.url) || !entry.url.startsWith('assets/'),
    })),
  });
  return { plugin, mark };
}
const shell = shellFiles();

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

/** From this heading on, docs/bundle.md is written by hand: each report keeps it. */
const BY_HAND = '\n## Measured by hand';

/**
 * `SLABDESK_BUNDLE_REPORT=1 npm run build`: the treemap (dist/stats.html) and docs/bundle.md, the
 * first load's chunks and its 40 largest modules, gzipped one by one (a module's share, not exact).
 */
function bundleReport(): Plugin {
  return {
    name: 'slabdesk-bundle-report',
    apply: 'build',
    writeBundle(_options, bundle) {
      const chunks = firstLoadChunks(bundle);
      const gz = (code: string) => gzipSync(code).length;
      const modules = chunks
        .flatMap((chunk) => Object.entries(chunk.modules))
        .map(([id, module]) => ({
          id: id
            .replace(`${process.cwd()}/`, '')
            .replace(/^.*node_modules\//, 'node_modules/')
            .replace(/^\0/, ''),
          gz: gz(module.code ?? ''),
        }))
        .sort((a, b) => b.gz - a.gz);
      const lines = [
        '# The first load',
        '',
        'Written by `SLABDESK_BUNDLE_REPORT=1 npm run build` (the treemap: `dist/stats.html`).',
        'The first page loads the entry chunk and the chunks it imports statically; everything else',
        "is a route's or a dialog's own chunk, loaded when used, or started after the first paint.",
        "The issue's goal: 130 KB gzipped; the budget: test/e2e/first-load-budget.spec.ts.",
        '',
        '| chunk | KB | KB gz |',
        '|---|---:|---:|',
        ...chunks.map(
          (c) =>
            `| ${c.fileName.replace(/-[\w-]{8}\.js$/, '.js')} | ${kb(c.code.length)} | ${kb(gz(c.code))} |`,
        ),
        `| **total** | | **${kb(chunks.reduce((sum, c) => sum + gz(c.code), 0))}** |`,
        '',
        '## Its largest modules',
        '',
        "Each module's code before minifying, gzipped alone: a ranking, larger than its share of the",
        'chunk (the treemap, from the source maps, has the minified sizes).',
        '',
        '| module | KB gz |',
        '|---|---:|',
        ...modules.slice(0, 40).map((m) => `| ${m.id} | ${kb(m.gz)} |`),
        '',
      ];
      const previous = existsSync('docs/bundle.md') ? readFileSync('docs/bundle.md', 'utf8') : '';
      const byHand = previous.includes(BY_HAND) ? BY_HAND + previous.split(BY_HAND)[1] : '';
      writeFileSync('docs/bundle.md', lines.join('\n') + byHand);
    },
  };
}

/**
 * react-router's package points every import at its development files, dev warnings included
 * (remix-run/react-router#14102, open): the build takes the production files beside them.
 */
const reactRouterProduction: Plugin = {
  name: 'slabdesk-react-router-production',
  apply: 'build',
  config: () => ({
    resolve: {
      alias: [
        {
          find: /^react-router$/,
          replacement: fileURLToPath(
            new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url),
          ),
        },
      ],
    },
  }),
};

const report = process.env.SLABDESK_BUNDLE_REPORT === '1';

/**
 * The dashboard's bundle. The dev server's API proxy and the embedded sandbox are added by
 * `npm run dev` (src/main/dev.ts), which runs Vite in middleware mode.
 */
export default defineConfig({
  plugins: [
    reactRouterProduction,
    react(),
    inlineEntryStylesheet(),
    shell.plugin,
    // Installable, and open with no network: the manifest, and a service worker of our own
    // (src/sw.ts) given the build's file list; registered by the page (src/app/service-worker.ts).
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      injectRegister: false,
      manifestFilename: 'manifest.webmanifest',
      manifest: {
        name: 'Slabdesk',
        short_name: 'Slabdesk',
        description: 'Your graded-card listings, orders and card shows.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: '#f1faee',
        theme_color: '#1d3557',
        icons: [
          { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          { src: '/icon.svg', sizes: 'any', type: 'image/svg+xml' },
        ],
      },
      injectManifest: {
        // The app's code and pictures, the barcode reader's wasm (a scan at a show works offline);
        // never the page (it carries the session) nor a twin. The shell's files are marked.
        globPatterns: ['**/*.{js,css,svg,png,webmanifest,wasm}'],
        globIgnores: ['sw.js', '**/*.map'],
        maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
        manifestTransforms: [shell.mark],
      },
      devOptions: { enabled: false },
    }),
    // Each text file and the reader's wasm beside its gzip and brotli twins, served as they are
    // (see dist-pages).
    compression({
      algorithms: ['gzip', 'brotliCompress'],
      include: /\.(html|xml|css|json|js|mjs|svg|wasm|webmanifest)$/,
      exclude: [/\.(map|html)$/],
    }),
    ...(report
      ? [
          bundleReport(),
          visualizer({ filename: 'dist/stats.html', sourcemap: true, gzipSize: true }),
        ]
      : []),
  ],
  // `npm run dev` (src/main/dev.ts): every dependency the page imports is pre-bundled at start,
  // none found on the first page (a reload), and the entry and first pages transformed before asked.
  optimizeDeps: {
    include: [
      'react',
      'react/jsx-runtime',
      'react/jsx-dev-runtime',
      'react-dom',
      'react-dom/client',
      'react-router',
      '@tanstack/react-query',
      'react-hook-form',
      '@hookform/resolvers/zod',
      'zod/mini',
      'idb',
      'papaparse',
      'uqr',
      'barcode-detector/ponyfill',
    ],
  },
  server: {
    warmup: {
      clientFiles: [
        './src/main.tsx',
        './src/features/overview/overview-page.tsx',
        './src/features/listings/catalogue/listings-page.tsx',
        './src/features/orders/orders-page.tsx',
      ],
    },
  },
  build: {
    // The compiled server sits beside it, in dist/, never among the files served.
    outDir: 'dist/page',
    sourcemap: true,
    // `.vite/manifest.json`: the server names each route's chunks in its page (route-preloads).
    manifest: true,
    // Every browser the dashboard supports preloads modules itself: no polyfill in the first load.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // What the entry imports statically is loaded on every page anyway: one chunk, not the
        // common chunks the default splitting cuts from it (each its own request and gzip).
        // A shared chunk (and its stylesheet) is named by the pages that use it: too long a name
        // for an address.
        chunkFileNames: ({ name }) =>
          name.startsWith('pages~') ? 'assets/pages-[hash].js' : 'assets/[name]-[hash].js',
        assetFileNames: ({ names }) =>
          names[0]?.startsWith('pages~')
            ? 'assets/pages-[hash][extname]'
            : 'assets/[name]-[hash][extname]',
        codeSplitting: {
          groups: [
            { name: 'index', tags: ['$initial'], priority: 2 },
            // The house's parts that pages share (components, formats, data reads) in a few
            // chunks by the pages that use them, the small ones merged: a listings page asks for 14
            // files, not 25, each a round trip on a phone's link (Lighthouse on npm start: LCP
            // 0.15 to 0.3 s sooner on Orders, Rules and an order; docs/bundle.md).
            {
              name: 'pages',
              priority: 1,
              test: /\/src\/(components|lib|shared|api|client)\//,
              minShareCount: 2,
              entriesAware: true,
              entriesAwareMergeThreshold: 4000,
            },
          ],
        },
      },
    },
  },
});
