import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { buildApp } from './app';
import type { SandboxOptions } from './config';
import type { SandboxContext } from './context';
import { createClock } from './domain/clock';
import { PUBLIC_ORIGIN_KEY, setEventPayloads } from './domain/events';
import { createFaults } from './domain/faults';
import { runMarketplaceClock } from './domain/market-clock';
import { simulateStep } from './domain/simulation';
import { randomIds } from './domain/ids';
import { hostNames, isLoopbackBind, type HostNames } from './platform/host-names';
import { IdempotencyGuard } from './platform/idempotency';
import { LeakyBuckets } from './platform/leaky-bucket';
import { createCursorCodec } from './platform/page-cursor';
import { DEMO_SELLER_ID, seedDemo } from './seed/demo-seed';
import { eventPayloads } from './serializers/event-payloads';
import { createStore, type Store } from './store';
import { WebhookDispatcher } from './webhooks/dispatcher';

/** How long requests in flight may take to finish when the sandbox closes. */
const CLOSE_GRACE_MS = 2000;

export interface RunningSandbox {
  /** `http://HOST:PORT`; the public API is at `${url}/2026-07/...`, the control API at `${url}/_sandbox`. */
  url: string;
  close(): Promise<void>;
  /** For tests and benchmarks in the same process. */
  app: FastifyInstance;
  context: SandboxContext;
}

/** A random identity of the store kept in its meta table (made on first use). */
function remembered(store: Store, key: 'cursor_secret' | 'epoch', bytes: number): string {
  let value = store.meta.get(key);
  if (!value) {
    value = randomBytes(bytes).toString('hex');
    store.meta.set(key, value);
  }
  return value;
}

/** Starts the sandbox: opens (and migrates) the store, seeds it when empty, and listens. */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const store = createStore(options.db ?? '.sandbox/sandbox.db');
  setEventPayloads(store, eventPayloads);
  const clock = createClock(store.meta);
  let epoch = remembered(store, 'epoch', 6);
  const ctx: SandboxContext = {
    store,
    clock,
    faults: createFaults(store.meta),
    buckets: new LeakyBuckets(options.rateLimit ?? true),
    cursors: createCursorCodec(remembered(store, 'cursor_secret', 32)),
    ids: randomIds,
    deployment: options.deployment ?? 'sandbox',
    shapes: options.shapes ?? 'full',
    loopbackImages: options.loopbackImages ?? false,
    epoch: () => epoch,
  };
  const guard = new IdempotencyGuard(store, () => clock.now());
  const dispatcher = new WebhookDispatcher(ctx, options.webhookTimeoutMs);
  const market = () => ({ store, ids: ctx.ids, now: clock.now() });
  let publicOrigin = '';
  // The names the sandbox answers to, known once it listens (its port may be any free one).
  const answered: { hosts?: HostNames } = {};
  const seed = (kind: 'none' | 'demo') => {
    const demo = { listings: options.demoListings, soldShare: options.demoSoldShare };
    if (kind === 'demo') seedDemo(store, clock.now(), demo);
    store.meta.set('seeded', kind);
  };
  if (
    store.accounts.seller(DEMO_SELLER_ID) === undefined &&
    store.meta.get('seeded') === undefined
  ) {
    seed(options.seed ?? 'demo');
  }

  const app = buildApp(
    ctx,
    {
      reset(kind) {
        store.wipe();
        epoch = randomBytes(6).toString('hex');
        store.meta.set('epoch', epoch);
        clock.reload();
        ctx.faults.reload();
        ctx.buckets.reset();
        guard.clear();
        if (publicOrigin) store.meta.set(PUBLIC_ORIGIN_KEY, publicOrigin);
        seed(kind);
      },
      async afterClockAdvance(now) {
        runMarketplaceClock({ store, ids: ctx.ids, now });
        await dispatcher.settle();
      },
      idempotency: guard,
      dispatcher,
    },
    { hosts: () => answered.hosts, controlToken: options.controlToken || undefined },
    options.log ?? false,
  );

  const bindHost = options.host ?? '127.0.0.1';
  if (!isLoopbackBind(bindHost) && !options.controlToken) {
    console.warn(
      `Sandbox: bound to ${bindHost}, beyond this machine: its control API (reset, keys, webhooks) is open to anyone who can reach it. Set SANDBOX_CONTROL_TOKEN to close it.`,
    );
  }
  const address = await app.listen({ host: bindHost, port: options.port ?? 4010 });
  answered.hosts = hostNames(
    bindHost,
    (app.server.address() as AddressInfo).port,
    options.allowedHosts,
  );
  const url = address.replace('[::1]', 'localhost');
  publicOrigin = url;
  store.meta.set(PUBLIC_ORIGIN_KEY, url);
  // The marketplace moves with real time too: windows end, schedules release, retries fall due.
  dispatcher.start();
  const safely = (fn: () => void) => () => {
    try {
      fn();
    } catch (error) {
      app.log.error(error);
    }
  };
  const ticker = setInterval(
    safely(() => runMarketplaceClock(market())),
    1000,
  );
  ticker.unref();
  const simulation = options.simulate
    ? setInterval(
        safely(() => simulateStep(market(), DEMO_SELLER_ID)),
        options.simulateIntervalMs ?? 4000,
      )
    : null;
  let closed = false;
  return {
    url,
    app,
    context: ctx,
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(ticker);
      if (simulation) clearInterval(simulation);
      await dispatcher.stop();
      // Requests in flight get a grace period to finish; a connection still busy after it (a
      // client that stopped reading a large page, say) is cut so that closing always ends.
      const cut = setTimeout(() => app.server.closeAllConnections(), CLOSE_GRACE_MS);
      await app.close();
      clearTimeout(cut);
      store.close();
    },
  };
}
