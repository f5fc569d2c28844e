/**
 * The servers global setup starts, named by the variables the specs read. It starts one set per
 * worker, numbered by Playwright's parallel index (`SLABDESK_E2E_URL_1`, ...); `useSlotServers`
 * points a worker's unnumbered names at its own set before any spec is loaded.
 */
export const E2E_SERVER_NAMES = [
  'SLABDESK_E2E_URL',
  'SLABDESK_E2E_TEST_MODE_URL',
  'SLABDESK_E2E_DOCUMENTED_URL',
  'SLABDESK_E2E_DOCUMENTED_SANDBOX',
  'SLABDESK_E2E_SIGN_IN_URL',
  'SLABDESK_E2E_SANDBOX',
] as const;

export type E2EServerName = (typeof E2E_SERVER_NAMES)[number];

/** In a worker (Playwright sets its parallel index before loading the config): its own set. */
export function useSlotServers(env: NodeJS.ProcessEnv = process.env): void {
  const slot = env.TEST_PARALLEL_INDEX;
  if (slot === undefined) return;
  for (const name of E2E_SERVER_NAMES) {
    const url = env[`${name}_${slot}`];
    if (url !== undefined) env[name] = url;
  }
}
