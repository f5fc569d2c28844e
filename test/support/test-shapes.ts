import type { Harness } from './sandbox-harness';

/**
 * The read shapes the sandbox of a component test serves: `full` by default, or `documented`
 * (exactly the spec's fields) when the suite runs as the `documented` vitest project, so the
 * listing pages are proven against any server that keeps the contract.
 */
export const TEST_SHAPES: 'full' | 'documented' =
  process.env.SLABDESK_TEST_SHAPES === 'documented' ? 'documented' : 'full';

export const DOCUMENTED_ONLY = TEST_SHAPES === 'documented';

/**
 * Runs a test's own ground-truth reads (which listing is sold, its player, its terms) against the
 * full shapes, then puts the sandbox back to the shapes under test. Only for set-up before the
 * page renders: the page itself only ever sees the shapes under test.
 */
export async function withFullShapes<T>(harness: Harness, read: () => Promise<T>): Promise<T> {
  const context = harness.sandbox.context;
  const shapes = context.shapes;
  context.shapes = 'full';
  try {
    return await read();
  } finally {
    context.shapes = shapes;
  }
}
