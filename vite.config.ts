import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { VitePWA } from 'vite-plugin-pwa';

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

/**
 * The dashboard's bundle. The dev server's API proxy and the embedded sandbox are added by
 * `npm run dev` (src/main/dev.ts), which runs Vite in middleware mode.
 */
export default defineConfig({
  plugins: [
    react(),
    inlineEntryStylesheet(),
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
        // never the page (it carries the session) nor a twin.
        globPatterns: ['**/*.{js,css,svg,png,webmanifest,wasm}'],
        globIgnores: ['sw.js', '**/*.map'],
        maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
      },
      devOptions: { enabled: false },
    }),
    // Each text file beside its gzip and brotli twins, served as they are (see dist-pages).
    compression({ algorithms: ['gzip', 'brotliCompress'], exclude: [/\.(map|html)$/] }),
  ],
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
        codeSplitting: {
          groups: [{ name: 'index', tags: ['$initial'] }],
        },
      },
    },
  },
});
