import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { DEMO_LIVE_TOKEN } from '../../../src/sandbox';
import type { SandboxOptions } from '../../../src/sandbox';
import { startHarness, type Harness } from '../../support/sandbox-harness';
import { TEST_SHAPES, withFullShapes } from '../../support/test-shapes';

export interface DemoProduct {
  id: string;
  title: string;
  status: string;
  svc_unavailable_reason: string | null;
  svc_accepts_offers: boolean;
  svc_is_lot: boolean;
  variants: { price: string }[];
  svc_card: { player: string | null; cert_number: string };
}

/** A real sandbox with the demo seed, and the demo seller's live key. */
export async function startDemo(): Promise<{ harness: Harness; token: string }> {
  const harness = await startHarness({ seed: 'demo', rateLimit: false, shapes: TEST_SHAPES });
  return { harness, token: DEMO_LIVE_TOKEN };
}

/** The first demo listing matching `pick`, read over the API. */
export async function findProduct(
  harness: Harness,
  token: string,
  pick: (product: DemoProduct) => boolean,
): Promise<DemoProduct> {
  const body = await withFullShapes(harness, async () => {
    const response = await harness.api('/products.json?limit=250', { token });
    return (await response.json()) as { products: DemoProduct[] };
  });
  const product = body.products.find(pick);
  if (!product) throw new Error('no demo listing matches');
  return product;
}

/**
 * The one sandbox set-up of the UI suites: a real sandbox with the demo seed (in the shapes the
 * project runs, see test-shapes.ts) started once per file, the screen cleaned after each test,
 * the sandbox closed at the end, and the demo listings read once in their full product form.
 * Read `harness` and `products` inside tests and hooks (they are set in `beforeAll`).
 */
export function useDemoSandbox<P = DemoProduct>(
  options: Pick<SandboxOptions, 'demoListings' | 'rateLimit'> = {},
) {
  const fixture = {
    harness: undefined as unknown as Harness,
    token: DEMO_LIVE_TOKEN,
    products: [] as P[],
  };
  beforeAll(async () => {
    fixture.harness = await startHarness({
      seed: 'demo',
      rateLimit: options.rateLimit ?? false,
      shapes: TEST_SHAPES,
      ...(options.demoListings === undefined ? {} : { demoListings: options.demoListings }),
    });
    const body = await withFullShapes(fixture.harness, async () => {
      const response = await fixture.harness.api('/products.json?limit=250', {
        token: DEMO_LIVE_TOKEN,
      });
      return (await response.json()) as { products: P[] };
    });
    fixture.products = body.products;
  });
  afterEach(() => cleanup());
  afterAll(() => fixture.harness?.close());
  return fixture;
}
