// First: the heap's flags are set before the server allocates.
import './heap-flags';
import { distPages } from '../server/dist-pages';
import { runServer } from '../server/run-server';
import { startEmbeddedSandbox } from './embedded-sandbox';

/** `npm start [-- --port N --strictPort --host [H]]`: the built bundle with the same proxy and guard. */
await runServer(
  { name: 'server', command: 'npm start --', defaultPort: 4173 },
  (settings) => startEmbeddedSandbox(settings),
  async () => distPages(),
);
