import { runServer } from './run-server';
import { vitePages } from './vite-pages';

/** `npm run dev [-- --port N --strictPort --host [H]]`: Vite, the API proxy and (by default) the embedded sandbox. */
await runServer('dev server', 'npm run dev --', 5173, (server, allowedHosts) =>
  vitePages(server, process.cwd(), allowedHosts),
);
