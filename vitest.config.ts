import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

/**
 * The listing and order pages' component suites, run a second time against a sandbox that serves exactly the
 * spec's documented fields (`SANDBOX_SHAPES=documented`): no page may need more than that.
 */
const DOCUMENTED_SUITES = [
  'test/ui/listings-page.test.tsx',
  'test/ui/listing-detail.test.tsx',
  'test/ui/edit-listing.test.tsx',
  'test/ui/new-listing.test.tsx',
  'test/bulk/bulk-selection.test.tsx',
  'test/bulk/bulk-grid.test.tsx',
  'test/bulk/bulk-apply.test.tsx',
  'test/ui/overview.test.tsx',
  'test/ui/insights.test.tsx',
  'test/ui/order-detail.test.tsx',
  'test/ui/order-marks.test.tsx',
  'test/ui/orders-polling.test.tsx',
];

export default defineConfig({
  plugins: [react()],
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most suites wait on the sandbox's pacing, not the CPU: two at once on a 2-core machine
    // (Vitest's default there is one; three measured no faster).
    maxWorkers: 2,
    setupFiles: ['test/support/jest-dom.ts'],
    environment: 'node',
    projects: [
      {
        extends: true,
        test: {
          name: 'default',
          include: ['test/**/*.test.{ts,tsx}'],
          exclude: ['test/e2e/**', 'node_modules/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'documented',
          include: DOCUMENTED_SUITES,
          env: { SLABDESK_TEST_SHAPES: 'documented' },
        },
      },
      {
        // The sandbox's contract suites again, every call through Prism validating against the
        // sandbox's OpenAPI document (docs/testing.md).
        extends: true,
        test: {
          name: 'prism',
          include: ['test/sandbox/**/*.test.ts'],
          env: { SLABDESK_VALIDATE: 'prism' },
        },
      },
    ],
  },
});
