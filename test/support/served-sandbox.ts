import { afterAll, beforeAll } from 'vitest';
import { DEMO_LIVE_TOKEN } from '../../src/sandbox';
import type { Fault } from '../client/fault-proxy';
import { startAppOverLog, type AppOverLog } from './app-over-log';
import { startHarness, type Harness } from './sandbox-harness';

export interface ServedSandbox {
  harness: Harness;
  served: AppOverLog;
}

/**
 * For a test file: a demo sandbox of 300 listings (no rate limit) behind the dashboard's server
 * with the demo live key, its upstream a logging proxy (see app-over-log). Started before the
 * file's tests, closed after them; read the fields inside a test.
 */
export function servedSandbox(): ServedSandbox {
  const set = {} as ServedSandbox;
  beforeAll(async () => {
    set.harness = await startHarness({ seed: 'demo', demoListings: 300, rateLimit: false });
    set.served = await startAppOverLog(set.harness.url, DEMO_LIVE_TOKEN);
  });
  afterAll(async () => {
    await set.served.close();
    await set.harness.close();
  });
  return set;
}

/**
 * The dashboard's server over `sandboxUrl`, its upstream answering the `nth` listings call with
 * `fault` (a walk's third page, by default) and passing every other call.
 */
export function appFaultingListingsCall(
  sandboxUrl: string,
  fault: Fault,
  nth = 3,
): Promise<AppOverLog> {
  let calls = 0;
  return startAppOverLog(sandboxUrl, DEMO_LIVE_TOKEN, {
    decide: (info) => (info.url.includes('/listings.json') && ++calls === nth ? fault : 'pass'),
  });
}
