import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { DEMO_LIVE_TOKEN, DEMO_SELLER_ID } from '../../src/sandbox';
import type { AppServerOptions, RunningAppServer } from '../../src/server/app-server';
import { startServer, type World } from '../rules/rules-world';
import { startHarness, type Harness } from './sandbox-harness';

/**
 * A file's demo store behind a real Slabdesk server on the demo seller's live key: started before
 * its tests (the replica filled unless it fills when read), closed after. Read the fields inside
 * tests and hooks (they are set in `beforeAll`).
 */
export function useDemoHub(options: {
  demoListings: number;
  rateLimit?: boolean;
  server?: Partial<AppServerOptions>;
}) {
  const fixture = {
    harness: undefined as unknown as Harness,
    world: undefined as unknown as World,
    server: undefined as unknown as RunningAppServer,
  };
  beforeAll(async () => {
    const { demoListings, rateLimit } = options;
    fixture.harness = await startHarness({
      seed: 'demo',
      demoListings,
      ...(rateLimit === undefined ? {} : { rateLimit }),
    });
    fixture.world = {
      harness: fixture.harness,
      token: DEMO_LIVE_TOKEN,
      sellerId: DEMO_SELLER_ID,
      folder: mkdtempSync(join(tmpdir(), 'slabdesk-hub-')),
    };
    fixture.server = await startServer(fixture.world, options.server);
    if (options.server?.replica?.fill !== 'when-read') await fixture.server.replica.ready();
  });
  afterAll(async () => {
    await fixture.server?.close();
    await fixture.harness?.close();
  });
  return fixture;
}
