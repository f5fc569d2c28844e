import { optionsFromEnv } from './config';
import { startSandbox } from './index';

/** `npm run sandbox`: the sandbox in the foreground, configured by SANDBOX_* variables. */
const sandbox = await startSandbox(optionsFromEnv());
console.log(
  `Slabdesk sandbox listening on ${sandbox.url} (public API at ${sandbox.url}/2026-07, control API at ${sandbox.url}/_sandbox)`,
);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    sandbox.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
