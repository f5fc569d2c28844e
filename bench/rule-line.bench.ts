import { DEMO_LIVE_TOKEN, startSandbox, type RunningSandbox } from '../src/sandbox';
import { startAppServer, type PageSource, type RunningAppServer } from '../src/server/app-server';
import type { RuleDefinition } from '../src/shared/rule-definition';
import { percentile, round, type Bench } from './bench-api';
import { QUICK, sized } from './quick';

/**
 * A listing's rule line (`GET /hub/rules/listing/<id>`) with 150 daily rules, against the real
 * server on a sandbox with the demo seed: its p99 as a seller browses listing pages (each page
 * opened a few times, the first time planned), and `/healthz` while four callers hammer that path
 * over every listing at once (sign-in off: every caller is anonymous, on one shared budget).
 */
const RULES = sized(150, 150);
const LISTINGS = sized(250, 60);
const VISITS = sized(600, 120);
const FLOOD_MS = sized(8_000, 2_000);
const CALLERS = 4;

const noPages = async (): Promise<PageSource> => ({
  development: false,
  register: async () => {},
  pageHtml: async () => null,
});

const ZONES = ['UTC', 'America/New_York', 'Europe/Berlin', 'Australia/Sydney', 'Asia/Tokyo'];
const DAY_MS = 86_400_000;

/**
 * A dealer's mix of daily rules, several of which look weeks ahead for a listing (not listed long
 * enough yet, a sale that starts later).
 */
function ruleOf(i: number): RuleDefinition {
  const hour = String(i % 24).padStart(2, '0');
  const minute = String((i * 7) % 60).padStart(2, '0');
  const common = {
    name: `Bench rule ${i}`,
    scope: { status: 'active' as const },
    floor: {
      platformFeePercent: 12,
      margin: { kind: 'percent' as const, percent: 10 },
      fixed: '10.00',
      withoutCost: 'fixed' as const,
    },
    caps: { maxListings: 500, maxMarkdown: '1000000.00' },
    skipEditedWithinDays: 7,
    schedule: { daily: true, time: `${hour}:${minute}`, timeZone: ZONES[i % ZONES.length]! },
  };
  switch (i % 5) {
    case 0:
      return {
        ...common,
        action: {
          kind: 'markdown',
          afterDays: 45,
          step: { kind: 'percent', percent: 5 },
          everyDays: 7,
          ending: 'cent',
        },
      };
    case 1:
      return {
        ...common,
        action: {
          kind: 'markdown',
          afterDays: 0,
          step: { kind: 'percent', percent: 3 },
          everyDays: 14,
          ending: '99',
        },
      };
    case 2:
      return {
        ...common,
        action: { kind: 'offer_floor', percent: 70, turnOnAfterDays: 30 },
      };
    case 3:
      return {
        ...common,
        action: {
          kind: 'sale',
          percent: 20,
          startsAt: new Date(Date.now() + 40 * DAY_MS).toISOString(),
          endsAt: new Date(Date.now() + 50 * DAY_MS).toISOString(),
          ending: 'cent',
        },
      };
    default:
      return { ...common, action: { kind: 'relist', durationHours: 336 } };
  }
}

async function world(): Promise<{ sandbox: RunningSandbox; app: RunningAppServer; ids: string[] }> {
  const sandbox = await startSandbox({
    port: 0,
    db: ':memory:',
    seed: 'demo',
    demoListings: LISTINGS,
  });
  const app = await startAppServer(
    {
      upstream: { baseUrl: sandbox.url, apiKey: DEMO_LIVE_TOKEN },
      port: 0,
      activity: { path: ':memory:' },
    },
    noPages,
  );
  const { store } = app.rules!;
  for (let i = 0; i < RULES; i++) {
    const rule = store.createRule(ruleOf(i), 'bench', new Date().toISOString());
    store.updateRule(rule.id, { enabled: true }, new Date().toISOString());
  }
  // The rules' read of the listings, as the first preview makes it.
  const listings = await app.rules!.runner.source.listings();
  return { sandbox, app, ids: [...listings.keys()] };
}

async function line(app: RunningAppServer, id: string): Promise<number> {
  const response = await fetch(`${app.url}/hub/rules/listing/${encodeURIComponent(id)}`);
  await response.arrayBuffer();
  return response.status;
}

/** A seller opening listing pages: each listing a few times, in a shuffled order. */
async function lineP99(app: RunningAppServer, ids: readonly string[]): Promise<number> {
  const times: number[] = [];
  let upcoming = 0;
  for (let visit = 0; visit < VISITS; visit++) {
    const id = ids[(visit * 7919) % ids.length]!;
    const started = performance.now();
    const response = await fetch(`${app.url}/hub/rules/listing/${encodeURIComponent(id)}`);
    const body = (await response.json()) as { upcoming?: unknown[] };
    times.push(performance.now() - started);
    if (response.status !== 200) throw new Error(`the line answered ${response.status}`);
    upcoming += body.upcoming?.length ?? 0;
  }
  const planned = app.rules!.runner.lines.plannedCount;
  console.log(
    `(line: ${VISITS} calls over ${ids.length} listings, ${planned} planned, ${upcoming} upcoming changes; median ${round(percentile(times, 50))} ms, max ${round(Math.max(...times))} ms)`,
  );
  return percentile(times, 99);
}

/** `/healthz` every 25 ms while four callers hammer the line over every listing. */
async function healthzUnderFlood(app: RunningAppServer, ids: readonly string[]): Promise<number> {
  let flooding = true;
  const statuses = new Map<number, number>();
  const caller = async (offset: number) => {
    for (let i = offset; flooding; i += CALLERS) {
      const status = await line(app, ids[i % ids.length]!);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  };
  const callers = Array.from({ length: CALLERS }, (_, i) => caller(i));
  const times: number[] = [];
  const until = performance.now() + FLOOD_MS;
  while (performance.now() < until) {
    const started = performance.now();
    const response = await fetch(`${app.url}/healthz`);
    await response.arrayBuffer();
    times.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  flooding = false;
  await Promise.all(callers);
  console.log(
    `(flood: ${[...statuses].map(([status, n]) => `${n}× ${status}`).join(', ')}; /healthz ${times.length} calls, median ${round(percentile(times, 50))} ms, max ${round(Math.max(...times))} ms)`,
  );
  return percentile(times, 99);
}

const bench: Bench = {
  figures: ['server.rule_line_p99_ms', 'server.healthz_under_flood_ms'],
  async run(report) {
    // Two servers, so the flood starts with nothing kept and the seller's budget is untouched.
    for (const figure of ['server.rule_line_p99_ms', 'server.healthz_under_flood_ms'] as const) {
      const { sandbox, app, ids } = await world();
      try {
        if (figure === 'server.rule_line_p99_ms') report(figure, round(await lineP99(app, ids)));
        else report(figure, round(await healthzUnderFlood(app, ids)));
      } finally {
        await app.close();
        await sandbox.close();
      }
    }
    if (QUICK) console.log(`(quick: ${LISTINGS} listings, ${VISITS} line calls)`);
  },
};
export default bench;
