import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

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
  },
});
