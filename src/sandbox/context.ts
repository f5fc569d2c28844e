import type { Clock } from './domain/clock';
import type { FaultSwitches } from './domain/faults';
import type { IdSource } from './domain/ids';
import type { LeakyBuckets } from './platform/leaky-bucket';
import type { CursorCodec } from './platform/page-cursor';
import type { Store } from './store';
import type { ApiKeyRow, SellerRow } from './store/rows';

export type Deployment = 'sandbox' | 'production';

/** Read view shapes: `full` adds the sandbox's extras, `documented` is exactly the spec's. */
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
  /** Listing photos may be plain-http addresses on this machine (SandboxOptions.loopbackImages). */
  loopbackImages: boolean;
  /** The store's epoch: changes on reset, so older cursors become stale. */
  epoch(): string;
}

/** What the platform learned about a public API request, for the route and the response headers. */
export interface PlatformState {
  mode: 'live' | 'test';
  used: number;
  capacity: number;
  key?: ApiKeyRow;
  seller?: SellerRow;
  scopes: string[];
}
