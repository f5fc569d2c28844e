import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppHooks } from './app';
import type { SandboxOptions } from './config';
import type { SandboxContext } from './context';
import { createClock } from './domain/clock';
import { createFaults } from './domain/faults';
import { randomIds } from './domain/ids';
import { LeakyBuckets } from './platform/leaky-bucket';
import { createCursorCodec } from './platform/page-cursor';
import { seedDemo } from './seed/demo-seed';
import { createStore, type Store } from './store';

export interface RunningSandbox {
  /** `http://HOST:PORT`; the public API is at `${url}/2026-07/...`, the control API at `${url}/_sandbox`. */
  url: string;
  close(): Promise<void>;
  /** For tests and benchmarks in the same process. */
  app: FastifyInstance;
  context: SandboxContext;
}

/** Extension points that later parts of the sandbox (writes, webhooks, simulation) plug into. */
export interface SandboxExtension {
  hooks?: Partial<Pick<AppHooks, 'registerPublicRoutes' | 'registerControlRoutes'>>;
  afterClockAdvance?(ctx: SandboxContext, now: number): Promise<void> | void;
  afterReset?(ctx: SandboxContext): void;
  start?(ctx: SandboxContext, options: SandboxOptions): { stop(): Promise<void> | void } | void;
}

const extensions: SandboxExtension[] = [];

/** Adds an extension to every sandbox started after this call. */
export function useSandboxExtension(extension: SandboxExtension): void {
  extensions.push(extension);
}

function storeIdentity(store: Store): { secret: string } {
  let secret = store.meta.get('cursor_secret');
  if (!secret) {
    secret = randomBytes(32).toString('hex');
    store.meta.set('cursor_secret', secret);
  }
  if (!store.meta.get('epoch')) store.meta.set('epoch', randomBytes(6).toString('hex'));
  return { secret };
}

/** Starts the sandbox: opens (and migrates) the store, seeds it when empty, and listens. */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const store = createStore(options.db ?? '.sandbox/sandbox.db');
  const { secret } = storeIdentity(store);
  const clock = createClock(store.meta);
  let epoch = store.meta.get('epoch')!;
  const ctx: SandboxContext = {
    store,
    clock,
    faults: createFaults(store.meta),
    buckets: new LeakyBuckets(options.rateLimit ?? true),
    cursors: createCursorCodec(secret),
    ids: randomIds,
    deployment: options.deployment ?? 'sandbox',
    epoch: () => epoch,
  };
  const seed = (kind: 'none' | 'demo') => {
    if (kind === 'demo') seedDemo(store, clock.now(), { listings: options.demoListings });
  };
  const isEmpty = () =>
    store.accounts.seller('slr_demo') === undefined && store.meta.get('seeded') === undefined;
  if (isEmpty()) {
    seed(options.seed ?? 'demo');
    store.meta.set('seeded', options.seed ?? 'demo');
  }

  const app = buildApp(
    ctx,
    {
      reset(kind) {
        store.wipe();
        store.meta.set('epoch', randomBytes(6).toString('hex'));
        epoch = store.meta.get('epoch')!;
        clock.reload();
        ctx.faults.reload();
        ctx.buckets.reset();
        for (const extension of extensions) extension.afterReset?.(ctx);
        seed(kind);
        store.meta.set('seeded', kind);
      },
      async afterClockAdvance(now) {
        for (const extension of extensions) await extension.afterClockAdvance?.(ctx, now);
      },
      registerPublicRoutes(api, context) {
        for (const extension of extensions) extension.hooks?.registerPublicRoutes?.(api, context);
      },
      registerControlRoutes(control, context) {
        for (const extension of extensions)
          extension.hooks?.registerControlRoutes?.(control, context);
      },
    },
    options.log ?? false,
  );

  const address = await app.listen({
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 4010,
  });
  const url = address.replace('[::1]', 'localhost');
  const running = extensions
    .map((extension) => extension.start?.(ctx, options))
    .filter((r) => r !== undefined);
  let closed = false;
  return {
    url,
    app,
    context: ctx,
    async close() {
      if (closed) return;
      closed = true;
      for (const r of running) await r?.stop();
      await app.close();
      store.close();
    },
  };
}
