export { startSandbox, type RunningSandbox } from './server';
export type { SandboxOptions } from './config';
export { optionsFromEnv } from './config';
export { DEMO_LIVE_TOKEN, DEMO_TEST_TOKEN, DEMO_SELLER_ID } from './seed/demo-seed';
export { DEMO_UNLISTED_CERTS } from './seed/demo-certs';
