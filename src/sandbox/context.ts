import type { Clock } from './domain/clock';
import type { FaultSwitches } from './domain/faults';
import type { IdSource } from './domain/ids';
import type { LeakyBuckets } from './platform/leaky-bucket';
import type { CursorCodec } from './platform/page-cursor';
import type { Store } from './store';

export type Deployment = 'sandbox' | 'production';

/**
 * How the public API's read views are shaped. `full`: the spec's fields plus the sandbox's
 * extras (the listing's sale terms, window and card details). `documented`: exactly the fields
 * the spec's tables document for each view, nothing more.
 */
export type ReadShapes = 'full' | 'documented';

/** Everything a route needs, built once per running sandbox. */
export interface SandboxContext {
  store: Store;
  clock: Clock;
  faults: FaultSwitches;
  buckets: LeakyBuckets;
  cursors: CursorCodec;
  ids: IdSource;
  deployment: Deployment;
  /** Which read shapes the public API serves; the routes choose their serializers by it. */
  shapes: ReadShapes;
  /** The store's epoch: changes on reset, so older cursors become stale. */
  epoch(): string;
}
