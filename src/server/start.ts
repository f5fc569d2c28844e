import { distPages } from './dist-pages';
import { runServer } from './run-server';

/** `npm start [-- --port N --strictPort --host [H]]`: the built bundle with the same proxy and guard. */
await runServer('server', 'npm start --', 4173, async () => distPages());
