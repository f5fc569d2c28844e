import type { Server } from 'node:http';
import { dirname, join } from 'node:path';
import compress from '@fastify/compress';
import { validatorCompiler } from 'fastify-type-provider-zod';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyReply,
  type RouteOptions,
} from 'fastify';
import { openActivityLog } from './activity/activity-recorder';
import { apiProxyRoutes, type ProxyOptions, type Upstream } from './api-proxy';
import { AuthGate, signInGate, type AuthOptions } from './auth/auth-gate';
import type { Access } from './auth/roles';
import { CostStore } from './costs/cost-store';
import { answerRefusals, refuseUnreadable } from './error-envelope';
import { listenOn } from './listen';
import { ServerHub, type HubOptions } from './hub/server-hub';
import { startWebhookDoor, type WebhookDoor } from './hub/webhook-door';
import { serverLog } from './log';
import { PingShare } from './ping-share';
import { securityHeaders } from './security-headers';
import { jsonBody } from './plugins/json-body';
import { noStore } from './plugins/no-store';
import { requestLog } from './plugins/request-log';
import { openPush, type PushOptions } from './push/push-part';
import { Replica, type ReplicaOptions } from './replica/replica';
import { ReplicaStore } from './replica/replica-store';
import { allowedHostsFor, guardUpgrades, refuseMalformed, requestGuard } from './request-guard';
import { activityRoutes } from './routes/activity';

import { costRoutes } from './routes/costs';
import { hubRoutes } from './routes/hub';
import { photoRoutes } from './routes/photos';
import { pushRoutes } from './routes/push';
import { replicaRoutes } from './routes/replica';
import { rulesRoutes } from './routes/rules';
import { showRoutes } from './routes/shows';
import { signInRoutes } from './routes/sign-in';
import { viewRoutes } from './routes/views';
import { pageRoute, type PageSource } from './routes/pages';
import { RuleRunner, type RuleRunnerOptions } from './rules/rule-runner';
import { RulesStore } from './rules/rules-store';
import { ShowStore } from './shows/show-store';

export type { PageSource } from './routes/pages';

type RunnerTuning = Omit<
  RuleRunnerOptions,
  'store' | 'activity' | 'upstream' | 'governor' | 'replica'
>;

/** What the server keeps where: each store beside the activity log unless given (in memory with it). */
export interface AppServerOptions {
  upstream: Upstream;
  proxy?: ProxyOptions;
  host?: string;
  port?: number;
  strictPort?: boolean;
  /** Extra `Host` names accepted besides the loopback names and the bind address. */
  allowedHosts?: readonly string[];
  hub?: HubOptions;
  auth?: AuthOptions;
  /** Every write through the proxy; none (and no rules) when unset. */
  activity?: { path: string };
  /** With no log on disk, a folder of this run in the system's temporary folder. */
  photos?: { path: string };
  views?: { path: string };
  rules?: { path?: string; runner?: Partial<RunnerTuning> };
  /** By default beside the hub's ledger. */
  replica?: { path?: string } & Pick<ReplicaOptions, 'reconcileMs' | 'safetyNetMs' | 'fill'>;
  push?: PushOptions;
  /** A listener of its own for webhook deliveries only (`SLABDESK_WEBHOOK_PORT`; 0: any port). */
  webhookPort?: number;
  webhookHost?: string;
}

/** A route the server serves, and who it says may use it (none: nobody). */
export type DeclaredRoute = { methods: readonly string[]; url: string; access: Access | undefined };

/**
 * The dashboard's server on Fastify: security headers, the Host/Origin guard and the sign-in gate
 * before every route; assets and the page last. `createPageSource` gets the http server before it
 * listens, so Vite can attach its HMR websocket.
 */
export async function startAppServer(
  options: AppServerOptions,
  createPageSource: (server: Server) => Promise<PageSource>,
) {
  const host = options.host ?? '127.0.0.1';
  // First of all: an exposed server without an account refuses to start (NoAccountError).
  const gate = new AuthGate(options.auth, { bindHost: host, allowedHosts: options.allowedHosts });
  let allowedHosts = new Set<string>();
  // Event streams and phones' pushes end with their session: the gate says when.
  const sessions = {
    alive: (idHash: string) => gate.book.alive(idHash),
    onEnded: gate.book.onSessionsEnded.bind(gate.book),
  };
  const hub = new ServerHub(options.upstream.apiKey, { ...options.hub, sessions });
  const ledger = options.hub?.ledgerPath ?? ':memory:';
  const logPath = options.activity?.path;
  // A store's file: as given, else beside `near` (the activity log's, or the ledger's), else memory.
  const beside = (name: string, given?: string, near = logPath) =>
    given ?? (near === undefined || near === ':memory:' ? ':memory:' : join(dirname(near), name));
  const { path: replicaPath, ...replicaTuning } = options.replica ?? {};
  const replica = new Replica({
    store: new ReplicaStore(beside('replica.db', replicaPath, ledger)),
    upstream: options.upstream,
    governor: hub.governor,
    webhooks: () => hub.receivesWebhooks(),
    ...replicaTuning,
  });
  hub.onDelivery((topic, payload) => replica.applyDelivery(topic, payload));
  // What changed while no delivery could reach us is read by a round at once, not the safety net's.
  hub.onDeliveriesLost(() => void replica.round());
  tellTabsOfChanges(replica, hub);
  const activity = logPath === undefined ? undefined : openActivityLog(logPath);
  // The show ledger: in the activity log's file, its own tables.
  const shows = logPath ? new ShowStore(logPath) : undefined;
  const costs = new CostStore(beside('costs.db'));
  let rules: { store: RulesStore; runner: RuleRunner } | undefined;
  if (activity) {
    const store = new RulesStore(beside('rules.db', options.rules?.path));
    const runner = new RuleRunner({
      ...options.rules?.runner,
      store,
      activity: activity.store,
      upstream: options.upstream,
      governor: hub.governor,
      replica,
      costs,
    });
    rules = { store, runner };
  }
  const publicUrl = options.auth?.publicUrl;
  const path = beside('push.db', undefined, ledger);
  const push = openPush(options.push, { hub, replica, shows, path, publicUrl, sessions });
  const heard = options.proxy?.onAnswered ?? activity?.observe;
  const proxy: ProxyOptions = {
    // One ping a minute for every tab and device (null: each ping asks, for tests that count them).
    pings: new PingShare(Date.now, () => hub.governor?.lastAnsweredOk()),
    ...options.proxy,
    // Each listener is told whatever the other does.
    onAnswered: (exchange) => {
      try {
        heard?.(exchange);
      } finally {
        replica.observe(exchange);
      }
    },
  };

  const app = Fastify({
    // pino's own type is wider than the one Fastify's plugins are typed against.
    loggerInstance: serverLog as FastifyBaseLogger,
    // One line per request, from plugins/request-log.ts, instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: options.auth?.trustProxy ?? false,
    forceCloseConnections: true,
    return503OnClosing: true,
    // A path that does not decode (`/%E0%A4%A`) is refused before any route, in our envelope
    // (its reply is typed for a route's schema; this one has none).
    frameworkErrors: (_error, _request, reply) => refuseMalformed(reply as FastifyReply),
    // A request Node cannot read at all (no route to answer it) is refused in the envelope too.
    clientErrorHandler: refuseUnreadable,
    // A JSON route's body unless its route says more (the raw routes read theirs themselves).
    bodyLimit: 64 * 1024,
    // A slow or silent client cannot hold a socket for good; long answers (streams) are not limited.
    requestTimeout: 60_000,
    keepAliveTimeout: 5_000,
    http: { headersTimeout: 20_000 },
  });
  const pages = await createPageSource(app.server);
  // Kept as registered: a plugin's own onRoute hook may still set a route's access after ours.
  const registered: RouteOptions[] = [];
  app.addHook('onRoute', (route) => void registered.push(route));

  // Order matters: headers first, so even a refusal carries them; then the guard, then the gate.
  await securityHeaders(app, publicUrl);
  requestLog(app);
  requestGuard(app, () => allowedHosts);
  await signInGate(app, gate);
  // Every route, one plugin per resource, each stating who may use it; refusals in one envelope.
  app.setValidatorCompiler(validatorCompiler);
  answerRefusals(app);
  jsonBody(app);
  const { governor } = hub;
  await app.register(signInRoutes, { gate });
  await app.register(apiProxyRoutes, { upstream: options.upstream, governor, proxy });
  await app.register(hubRoutes, { hub });
  await app.register(photoRoutes, { path: beside('photos', options.photos?.path), publicUrl });
  // The seller's own data, changing at every sale and write: no cache keeps an answer of it.
  await app.register(async (own) => {
    own.addHook('onRequest', noStore);
    await own.register(activityRoutes, { store: activity?.store });
    if (rules) await own.register(rulesRoutes, { ...rules, governor });
    const caseListings = (ids: readonly string[]) => replica.store.wholeBodies('listings', ids);
    await own.register(showRoutes, { store: shows, caseListings });
    await own.register(costRoutes, { store: costs });
    await own.register(viewRoutes, { path: beside('views.db', options.views?.path) });
    await own.register(replicaRoutes, { replica });
    const allowLoopbackEndpoints = options.push?.allowLoopbackEndpoints === true;
    await own.register(pushRoutes, { store: push.store, keys: push.keys, allowLoopbackEndpoints });
  });

  const embedded = options.hub?.registerWith;
  const imageOrigins = embedded ? [new URL(embedded.sandboxUrl).origin] : [];
  await app.register(compress, { global: true, encodings: ['gzip'] });
  await pages.register(app);
  pageRoute(app, { pages, gate, upstream: options.upstream, imageOrigins });
  await app.ready();
  const routes: readonly DeclaredRoute[] = registered.map((route) => ({
    methods: [route.method].flat(),
    url: route.url,
    access: route.config?.access,
  }));
  guardUpgrades(app.server, () => allowedHosts, gate);

  const { port, url } = await listenOn(
    app.server,
    host,
    options.port ?? 5173,
    !!options.strictPort,
  );
  allowedHosts = allowedHostsFor(host, port, options.allowedHosts);
  let webhookDoor: WebhookDoor | undefined;
  if (options.webhookPort !== undefined) {
    try {
      const door = { host: options.webhookHost ?? host, port: options.webhookPort };
      webhookDoor = await startWebhookDoor(hub, door);
    } catch (error) {
      hub.close();
      await app.close();
      throw error;
    }
  }
  replica.start();
  push.watch?.look();
  rules?.runner.start();
  try {
    await hub.started(webhookDoor?.url ?? url);
  } catch (error) {
    serverLog.warn({ err: error }, 'Webhooks: could not register with the sandbox; the tabs poll');
  }
  return {
    hub,
    replica,
    activity,
    rules,
    push,
    url,
    port,
    server: app.server,
    auth: gate,
    ...(webhookDoor ? { webhookDoor } : {}),
    routes,
    close: async () => {
      await rules?.runner.close();
      rules?.store.close();
      await push.close();
      await replica.close();
      replica.store.close();
      await webhookDoor?.close();
      for (const part of [hub, gate, activity, shows, costs]) part?.close();
      await pages.close?.();
      await app.close();
    },
  };
}

/** The running server: its address, parts (hub, gate, replica, rules, push, door), routes, close. */
export type RunningAppServer = Awaited<ReturnType<typeof startAppServer>>;

/** How soon after a change the tabs hear of it: a page of a walk's changes is one message. */
const REPLICA_TELL_MS = 150;

/** Every tab hears which collections changed (it then reads the change feed from its cursor). */
function tellTabsOfChanges(replica: Replica, hub: ServerHub): void {
  const changed = new Set<string>();
  let change = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  replica.onChange((collection) => {
    changed.add(collection);
    // Read as the change is told: the store may be closed when the message goes.
    change = replica.store.changeNumber();
    timer ??= setTimeout(() => {
      timer = undefined;
      hub.broadcast('replica', { collections: [...changed], change });
      changed.clear();
    }, REPLICA_TELL_MS);
    timer.unref?.();
  });
}
