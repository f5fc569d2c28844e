import type { Server } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyReply,
  type RouteOptions,
} from 'fastify';
import type { Access } from './auth/route-access';
import { securityHeaders } from './plugins/helmet';
import compress from '@fastify/compress';
import type { ProxyOptions, Upstream } from './api-proxy';
import { ServerHub, type HubOptions } from './hub/server-hub';
import { openActivityLog, type ActivityLog } from './activity/activity-recorder';
import { startWebhookDoor, type WebhookDoor } from './hub/webhook-door';
import { allowedHostsFor } from './request-guard';
import { AuthGate } from './auth/auth-gate';
import type { AuthOptions } from './auth/auth-options';
import { serverLog } from './log';
import type { PageSource } from './page-source';
import { listenOn } from './listen';
import { requestLog } from './plugins/request-log';
import { refuseMalformed, requestGuard } from './plugins/request-guard';
import { signInGate } from './plugins/sign-in-gate';
import { ShowStore } from './shows/show-store';
import { CostStore } from './costs/cost-store';
import { PhotoStore } from './photos/photo-store';
import { pageRoute } from './routes/pages';
import { registerRoutes } from './routes';
import { guardUpgrades } from './plugins/upgrade-guard';
import { RulesStore } from './rules/rules-store';
import { RuleRunner, type RuleRunnerOptions } from './rules/rule-runner';
import { PingShare } from './ping-share';
import { Replica, type ReplicaOptions } from './replica/replica';
import { ReplicaStore } from './replica/replica-store';
import { openPush, type PushOptions, type PushPart } from './push/push-part';

export type { PageSource } from './page-source';

export interface AppServerOptions {
  upstream: Upstream;
  /** How the API proxy answers (see ProxyOptions). */
  proxy?: ProxyOptions;
  host?: string;
  port?: number;
  strictPort?: boolean;
  /** Extra `Host` names accepted besides the loopback names and the bind address. */
  allowedHosts?: readonly string[];
  /** The webhook receiver's secrets, ledger and sandbox registration (default: none). */
  hub?: HubOptions;
  /** Sign-in: the accounts file and what marks the server exposed (default: none, in memory). */
  auth?: AuthOptions;
  /** Where the activity log (every write through the proxy) is kept; none when unset. */
  activity?: { path: string };
  /** Where the show ledger is kept; beside the activity log (its own tables) when unset. */
  shows?: { path: string };
  /**
   * The folder of photos taken for new listings (default: beside the activity log, `photos/`;
   * with no log on disk, a folder of this run in the system's temporary folder).
   */
  photos?: { path: string };
  /** Where the seller's kept costs are (default: beside the activity log, `costs.db`; else in memory). */
  costs?: { path: string };
  /**
   * Where the pricing rules are kept (default: beside the activity log, `rules.db`; in memory when
   * the log is); `runner` tunes their runs (tests, benchmarks). None without an activity log.
   */
  rules?: {
    path?: string;
    runner?: Partial<
      Omit<RuleRunnerOptions, 'store' | 'activity' | 'upstream' | 'governor' | 'replica'>
    >;
  };
  /**
   * The hub's replica of the seller's store: where it is kept (default: beside the hub's ledger,
   * `replica.db`; in memory when the ledger is) and its reconciliation intervals.
   */
  replica?: { path?: string } & Pick<ReplicaOptions, 'reconcileMs' | 'safetyNetMs' | 'fill'>;
  /** Web Push and the "sold online" alerts of the shows' cases (see push/push-part.ts). */
  push?: PushOptions;
  /** A listener of its own for webhook deliveries only (`SLABDESK_WEBHOOK_PORT`); 0: any port. */
  webhookPort?: number;
  /** The webhook door's bind address (default: `host`). */
  webhookHost?: string;
}

export interface RunningAppServer {
  url: string;
  port: number;
  server: Server;
  /** The key's governor, the webhook receiver and the event stream. */
  hub: ServerHub;
  /** The sign-in gate: whether the server is exposed, and why. */
  auth: Pick<AuthGate, 'exposed' | 'reasons'>;
  /** The activity log, when the options asked for one. */
  activity: ActivityLog | undefined;
  /** The hub's replica of the seller's store. */
  replica: Replica;
  /** The pricing rules' store and runner, when the server keeps an activity log. */
  rules: { store: RulesStore; runner: RuleRunner } | undefined;
  /** Web Push: its store, keys and sender, and the watch of the shows' cases. */
  push: PushPart;
  /** The webhook door, when `webhookPort` was given. */
  webhookDoor?: WebhookDoor;
  /** Every route the server serves, and who it says may use it (none: nobody). */
  routes: readonly DeclaredRoute[];
  close(): Promise<void>;
}

export interface DeclaredRoute {
  methods: readonly string[];
  url: string;
  access: Access | undefined;
}

/** Limits on a request's way in, so a slow or silent client cannot hold a socket for good. */
const LIMITS = {
  connectionTimeout: 0,
  keepAliveTimeout: 5_000,
  requestTimeout: 60_000,
  headersTimeout: 20_000,
  maxHeadersCount: 100,
  // A JSON route's body unless its route says more (the raw routes read theirs themselves).
  bodyLimit: 64 * 1024,
};

/**
 * The dashboard's server on Fastify: security headers, the Host/Origin guard and the sign-in gate
 * before every route; the proxy, walk and hub on the raw response; assets and the page last.
 * `createPageSource` gets the http server before it listens, so Vite can attach its HMR websocket.
 */
export async function startAppServer(
  options: AppServerOptions,
  createPageSource: (server: Server) => Promise<PageSource>,
): Promise<RunningAppServer> {
  const host = options.host ?? '127.0.0.1';
  // First of all: an exposed server without an account refuses to start (NoAccountError).
  const gate = new AuthGate(options.auth, { bindHost: host, allowedHosts: options.allowedHosts });
  let allowedHosts = new Set<string>();
  // Event streams end with their session: the gate says when, the hub closes them.
  const hub = new ServerHub(options.upstream.apiKey, {
    ...options.hub,
    sessions: {
      alive: (idHash) => gate.sessionAlive(idHash),
      onEnded: (listener) =>
        gate.onSessionsEnded((ended) => listener(ended === 'all-of-user' ? 'look' : ended)),
    },
  });
  const replica = openReplica(options, hub);
  const activity = options.activity ? openActivityLog(options.activity.path) : undefined;
  const showsPath = options.shows?.path ?? options.activity?.path;
  const shows = showsPath ? new ShowStore(showsPath) : undefined;
  const photos = openPhotos(options);
  const costs = new CostStore(besideActivity(options, options.costs?.path, 'costs.db'));
  const rules = activity ? openRules(options, activity, hub, replica, costs) : undefined;
  const push = openPush(options.push, {
    hub,
    replica,
    shows,
    ledgerPath: options.hub?.ledgerPath,
    publicUrl: options.auth?.publicUrl,
    sessions: {
      alive: (idHash) => gate.sessionAlive(idHash),
      onEnded: (listener) => gate.onSessionsEnded(listener),
    },
  });
  const proxy: ProxyOptions = {
    // One ping a minute for every tab and device (null: each ping asks, for tests that count them).
    pings: new PingShare(Date.now, () => hub.governor?.lastAnsweredOk()),
    ...options.proxy,
    onAnswered: bothTold(options.proxy?.onAnswered ?? activity?.recorder.observe, replica.observe),
  };

  const app = Fastify({
    // pino's own type is wider than the one Fastify's plugins are typed against.
    loggerInstance: serverLog as FastifyBaseLogger,
    // One line per request, from plugins/request-log.ts, instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: options.auth?.trustProxy ?? false,
    forceCloseConnections: true,
    return503OnClosing: true,
    // A path that does not decode (`/%E0%A4%A`) is refused before any route, in our envelope.
    // (its reply is typed for a route's schema; this one has none)
    frameworkErrors: (_error, _request, reply) => refuseMalformed(reply as FastifyReply),
    ...LIMITS,
  });
  Object.assign(app.server, {
    headersTimeout: LIMITS.headersTimeout,
    maxHeadersCount: LIMITS.maxHeadersCount,
  });
  const pages = await createPageSource(app.server);
  // Kept as registered: a plugin's own onRoute hook may still set a route's access after ours.
  const registered: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    registered.push(route);
  });

  // Order matters: headers first, so even a refusal carries them; then the guard, then the gate.
  await securityHeaders(app, options.auth?.publicUrl);
  requestLog(app);
  requestGuard(app, () => allowedHosts);
  signInGate(app, gate);
  await registerRoutes(app, {
    gate,
    upstream: options.upstream,
    proxy,
    hub,
    activity: activity?.store,
    rules,
    shows,
    costs,
    photos,
    replica,
    push,
    publicUrl: options.auth?.publicUrl,
    allowLoopbackPush: options.push?.allowLoopbackEndpoints === true,
  });
  const embedded = options.hub?.registerWith;
  await app.register(compress, { global: true, encodings: ['gzip'] });
  await pages.register(app);
  pageRoute(app, {
    pages,
    gate,
    upstream: options.upstream,
    imageOrigins: embedded ? [new URL(embedded.sandboxUrl).origin] : [],
  });
  await app.ready();
  const routes = registered.map((route) => ({
    methods: [route.method].flat(),
    url: route.url,
    access: route.config?.access,
  }));
  guardUpgrades(app.server, () => allowedHosts, gate);

  const port = await listenOn(app.server, host, options.port ?? 5173, options.strictPort ?? false);
  allowedHosts = allowedHostsFor(host, port, options.allowedHosts);
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const url = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`;
  let webhookDoor: WebhookDoor | undefined;
  if (options.webhookPort !== undefined) {
    try {
      webhookDoor = await startWebhookDoor(hub, {
        host: options.webhookHost ?? host,
        port: options.webhookPort,
      });
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
    url,
    port,
    server: app.server,
    hub,
    auth: gate,
    activity,
    replica,
    rules,
    push,
    ...(webhookDoor ? { webhookDoor } : {}),
    routes,
    close: async () => {
      await rules?.runner.close();
      rules?.store.close();
      await push.close();
      await replica.close();
      replica.store.close();
      await webhookDoor?.close();
      hub.close();
      gate.close();
      activity?.close();
      shows?.close();
      costs.close();
      photos.close();
      await pages.close?.();
      await app.close();
    },
  };
}

/** Two listeners of the proxy's answers, each told whatever the other does. */
function bothTold(
  first: ProxyOptions['onAnswered'],
  second: NonNullable<ProxyOptions['onAnswered']>,
): NonNullable<ProxyOptions['onAnswered']> {
  return (exchange) => {
    try {
      first?.(exchange);
    } finally {
      second(exchange);
    }
  };
}

/** The replica beside the hub's ledger, told every verified delivery. */
function openReplica(options: AppServerOptions, hub: ServerHub): Replica {
  const ledger = options.hub?.ledgerPath ?? ':memory:';
  const path =
    options.replica?.path ??
    (ledger === ':memory:' ? ':memory:' : join(dirname(ledger), 'replica.db'));
  const replica = new Replica({
    store: new ReplicaStore(path),
    upstream: options.upstream,
    governor: hub.governor,
    webhooks: () => hub.receivesWebhooks(),
    ...(options.replica?.reconcileMs === undefined
      ? {}
      : { reconcileMs: options.replica.reconcileMs }),
    ...(options.replica?.fill === undefined ? {} : { fill: options.replica.fill }),
    ...(options.replica?.safetyNetMs === undefined
      ? {}
      : { safetyNetMs: options.replica.safetyNetMs }),
  });
  hub.onDelivery((topic, payload) => replica.applyDelivery(topic, payload));
  tellTabsOfChanges(replica, hub);
  return replica;
}

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
      const collections = [...changed];
      changed.clear();
      hub.events.broadcast('replica', { collections, change });
    }, REPLICA_TELL_MS);
    timer.unref?.();
  });
}

/** A store's file: as given, else beside the activity log, else in memory (with the log). */
function besideActivity(options: AppServerOptions, path: string | undefined, name: string): string {
  if (path) return path;
  const logPath = options.activity?.path;
  return logPath === undefined || logPath === ':memory:'
    ? ':memory:'
    : join(dirname(logPath), name);
}

/** The photos' folder: as given, beside the activity log, or this run's own temporary one. */
function openPhotos(options: AppServerOptions): PhotoStore {
  if (options.photos) return new PhotoStore(options.photos.path);
  const logPath = options.activity?.path;
  if (logPath !== undefined && logPath !== ':memory:') {
    return new PhotoStore(join(dirname(logPath), 'photos'));
  }
  return new PhotoStore(mkdtempSync(join(tmpdir(), 'slabdesk-photos-')), true);
}

/** The rules' store beside the activity log, and their runner on the key's governor. */
function openRules(
  options: AppServerOptions,
  activity: ActivityLog,
  hub: ServerHub,
  replica: Replica,
  costs: CostStore,
) {
  const logPath = options.activity!.path;
  const path =
    options.rules?.path ??
    (logPath === ':memory:' ? ':memory:' : join(dirname(logPath), 'rules.db'));
  const store = new RulesStore(path);
  const runner = new RuleRunner({
    ...options.rules?.runner,
    store,
    activity: activity.store,
    upstream: options.upstream,
    governor: hub.governor,
    replica,
    costs,
  });
  return { store, runner };
}
