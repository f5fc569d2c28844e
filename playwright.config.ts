import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './test/e2e/chromium';
import { useSlotServers } from './test/e2e/server-slots';

// Loaded again in each worker: there, the servers' names point at that worker's own set.
useSlotServers();

/**
 * The browser suite: Debian's Chromium (never a downloaded browser) against the production
 * build served by the same server as `npm start`, on a fresh in-memory sandbox with the demo
 * seed. Global setup builds, starts a set of servers per worker on free ports and hands the URLs
 * over in the environment (workers inherit it). Two workers: most specs wait on the sandbox's
 * pacing or the page's reads, not the CPU.
 */
export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '*.spec.ts',
  globalSetup: './test/e2e/global-setup.ts',
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  outputDir: 'test-results',
  projects: [
    { name: 'default', use: { baseURL: process.env.SLABDESK_E2E_URL } },
    {
      // The seller, bulk and live-update journeys again, on a sandbox serving only the spec's documented fields.
      name: 'documented',
      testMatch: /(seller-journey|bulk|live-updates)\.spec\.ts/,
      use: { baseURL: process.env.SLABDESK_E2E_DOCUMENTED_URL },
    },
  ],
  use: {
    baseURL: process.env.SLABDESK_E2E_URL,
    viewport: { width: 1280, height: 800 },
    trace: 'off',
    // A service worker answers the page's requests itself, past `page.route`: the suites that
    // count or hold requests see the network; the offline suite turns it back on for itself.
    serviceWorkers: 'block',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
  },
});
