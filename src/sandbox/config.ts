import type { Deployment, ReadShapes } from './context';
import { parseAllowedHosts } from './platform/host-names';

/** Everything `startSandbox` can be told; each has an environment variable for `npm run sandbox`. */
export interface SandboxOptions {
  /** SANDBOX_HOST, default 127.0.0.1. */
  host?: string;
  /** SANDBOX_PORT, default 4010; 0 takes any free port. */
  port?: number;
  /** SANDBOX_DB, default `.sandbox/sandbox.db`; `:memory:` for a throwaway store. */
  db?: string;
  /** SANDBOX_SEED, default `demo`: seeds an empty store with the demo seller; `none` leaves it empty. */
  seed?: 'demo' | 'none';
  /** SANDBOX_DEPLOYMENT, default `sandbox`; `production` makes test keys read-only. */
  deployment?: Deployment;
  /** SANDBOX_SHAPES: `full` (default) adds the listing views' extras; `documented`: the spec's. */
  shapes?: ReadShapes;
  /** SANDBOX_RATE_LIMIT=off turns the leaky bucket off. For benchmarks only. */
  rateLimit?: boolean;
  /** SANDBOX_DEMO_LISTINGS: how many listings the demo seed creates (default 600). */
  demoListings?: number;
  /** SANDBOX_DEMO_SOLD_SHARE: share of demo listings sold, each an order (default 1/3); benches. */
  demoSoldShare?: number;
  /** SANDBOX_SIMULATE=1: the demo marketplace lives on its own (sales and order stages every few seconds). */
  simulate?: boolean;
  /** SANDBOX_SIMULATE_INTERVAL_MS: how often the simulation acts (default 4000). */
  simulateIntervalMs?: number;
  /** SANDBOX_WEBHOOK_TIMEOUT_MS: how long a webhook receiver has to answer (default 10000). */
  webhookTimeoutMs?: number;
  /** SANDBOX_LOG=1: Fastify's request log on stdout. */
  log?: boolean;
  /** SANDBOX_ALLOWED_HOSTS: extra Host names, comma-separated; with `:port` that port only. */
  allowedHosts?: string[];
  /** SANDBOX_CONTROL_TOKEN: when set, `/_sandbox/*` calls must present it (401 otherwise). */
  controlToken?: string;
  /** SANDBOX_LOOPBACK_IMAGES=1: photos may be plain-http loopback URLs (the dev hub keeps them). */
  loopbackImages?: boolean;
}

export function optionsFromEnv(env: NodeJS.ProcessEnv = process.env): SandboxOptions {
  const options: SandboxOptions = {};
  if (env.SANDBOX_HOST) options.host = env.SANDBOX_HOST;
  if (env.SANDBOX_PORT !== undefined && env.SANDBOX_PORT !== '') {
    const port = Number(env.SANDBOX_PORT);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new Error(`SANDBOX_PORT must be a port number, not "${env.SANDBOX_PORT}"`);
    }
    options.port = port;
  }
  if (env.SANDBOX_DB) options.db = env.SANDBOX_DB;
  const seed = oneOf(env, 'SANDBOX_SEED', ['demo', 'none']);
  if (seed) options.seed = seed;
  const deployment = oneOf(env, 'SANDBOX_DEPLOYMENT', ['sandbox', 'production']);
  if (deployment) options.deployment = deployment;
  if (env.SANDBOX_LOOPBACK_IMAGES === '1') options.loopbackImages = true;
  const shapes = oneOf(env, 'SANDBOX_SHAPES', ['full', 'documented']);
  if (shapes) options.shapes = shapes;
  if (env.SANDBOX_RATE_LIMIT)
    options.rateLimit = !['off', '0', 'false'].includes(env.SANDBOX_RATE_LIMIT);
  if (env.SANDBOX_DEMO_LISTINGS) options.demoListings = Number(env.SANDBOX_DEMO_LISTINGS);
  if (env.SANDBOX_DEMO_SOLD_SHARE) options.demoSoldShare = Number(env.SANDBOX_DEMO_SOLD_SHARE);
  if (env.SANDBOX_SIMULATE) options.simulate = ['1', 'true', 'on'].includes(env.SANDBOX_SIMULATE);
  if (env.SANDBOX_SIMULATE_INTERVAL_MS)
    options.simulateIntervalMs = Number(env.SANDBOX_SIMULATE_INTERVAL_MS);
  if (env.SANDBOX_WEBHOOK_TIMEOUT_MS) {
    const ms = Number(env.SANDBOX_WEBHOOK_TIMEOUT_MS);
    if (!Number.isInteger(ms) || ms <= 0) {
      throw new Error(
        `SANDBOX_WEBHOOK_TIMEOUT_MS must be a positive integer, not "${env.SANDBOX_WEBHOOK_TIMEOUT_MS}"`,
      );
    }
    options.webhookTimeoutMs = ms;
  }
  if (env.SANDBOX_LOG) options.log = ['1', 'true', 'on'].includes(env.SANDBOX_LOG);
  if (env.SANDBOX_ALLOWED_HOSTS)
    options.allowedHosts = parseAllowedHosts(env.SANDBOX_ALLOWED_HOSTS);
  if (env.SANDBOX_CONTROL_TOKEN?.trim()) options.controlToken = env.SANDBOX_CONTROL_TOKEN.trim();
  return options;
}

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, values: T[]): T | undefined {
  const value = env[name];
  if (!value) return undefined;
  if ((values as string[]).includes(value)) return value as T;
  throw new Error(`${name} must be ${values.join(' or ')}, not "${value}"`);
}
