import { vi } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  startAppServer,
  type AppServerOptions,
  type RunningAppServer,
} from '../../src/server/app-server';
import type { RunItem, RunRecord } from '../../src/server/rules/rules-store';
import type { ActivityEntry } from '../../src/server/activity/activity-store';
import { emptyPages } from '../support/empty-pages';
import { startHarness, type Harness } from '../support/sandbox-harness';

/** A sandbox with one seller, and a Slabdesk server on its live key: the rules' test world. */
export interface World {
  harness: Harness;
  token: string;
  sellerId: string;
  folder: string;
}

export async function startWorld(options: { rateLimit?: boolean } = {}): Promise<World> {
  const harness = await startHarness({ seed: 'none', rateLimit: options.rateLimit ?? false });
  const { token, sellerId } = await harness.seller({ mode: 'live' });
  return { harness, token, sellerId, folder: mkdtempSync(join(tmpdir(), 'slabdesk-rules-')) };
}

export async function startServer(
  world: World,
  extra: Partial<AppServerOptions> = {},
): Promise<RunningAppServer> {
  return startAppServer(
    {
      upstream: { baseUrl: world.harness.url, apiKey: world.token },
      port: 0,
      activity: { path: ':memory:' },
      ...extra,
    },
    emptyPages,
  );
}

let certs = 0;
let made = 0;
const makers = new Map<World, string>();
/**
 * The key listings are made with: not the server's (its bucket is what a run is measured against),
 * and a fresh one every 30 listings so a rate-limited sandbox makes them without waiting.
 */
async function makerToken(world: World): Promise<string> {
  const current = makers.get(world);
  if (current && made++ % 30 !== 29) return current;
  const key = await world.harness.control<{ key: { token: string } }>('POST', '/keys', {
    seller_id: world.sellerId,
    mode: 'live',
    scopes: ['write_listings', 'read_listings', 'read_inventory'],
  });
  makers.set(world, key.body.key.token);
  return key.body.key.token;
}

/** Listings of the seller, each on a card of its own with the given cost (none: no cost). */
export async function makeListings(
  world: World,
  grade: string,
  specs: { price: string; cost?: string | null; acceptsOffers?: boolean; promoted?: boolean }[],
): Promise<{ id: string; cardId: string }[]> {
  const out: { id: string; cardId: string }[] = [];
  for (const spec of specs) {
    const cert = `R${Date.now().toString(36)}${(certs++).toString(36)}`.slice(0, 20);
    const item = await world.harness.control<{ inventory_item: { id: string } }>(
      'POST',
      '/inventory_items',
      {
        seller_id: world.sellerId,
        cert_number: cert,
        grader: 'PSA',
        grade,
        title: `Card ${cert}`,
        category: 'baseball',
        ...(spec.cost === null || spec.cost === undefined ? {} : { cost: spec.cost }),
      },
    );
    if (item.status !== 200) throw new Error(`inventory item: ${JSON.stringify(item.body)}`);
    const created = await world.harness.api('/listings.json', {
      token: await makerToken(world),
      method: 'POST',
      body: {
        listing: {
          inventory_item_id: item.body.inventory_item.id,
          price: spec.price,
          accepts_offers: spec.acceptsOffers ?? false,
          promoted: spec.promoted ?? false,
        },
      },
    });
    const body = (await created.json()) as { listing?: { id: string } };
    if (created.status !== 201 && created.status !== 200) {
      throw new Error(`listing: ${created.status} ${JSON.stringify(body)}`);
    }
    out.push({ id: body.listing!.id, cardId: item.body.inventory_item.id });
  }
  return out;
}

export interface ListingNow {
  id: string;
  price: string;
  status: string;
  minimum_offer: string | null;
  accepts_offers: boolean;
  unavailable_reason: string | null;
}

export async function listing(world: World, id: string): Promise<ListingNow> {
  const answer = await world.harness.api(`/listings/${id}.json`, {
    token: await makerToken(world),
  });
  return ((await answer.json()) as { listing: ListingNow }).listing;
}

/** Calls the server's rules API as the page does (JSON), with extra headers (a session's). */
export async function hub<T = Record<string, unknown>>(
  server: RunningAppServer,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const response = await fetch(`${server.url}/hub/rules${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as T };
}

export interface RuleView {
  id: number;
  enabled: boolean;
  createdBy: string | null;
  lastRun: RunRecord | null;
}

export interface RunDetail {
  run: RunRecord;
  sending: boolean;
  items: (RunItem & { floor: string | null })[];
}

/** Waits for a run to end (done or stopped) and answers it with its items. */
export async function finished(server: RunningAppServer, runId: number, timeout = 30_000) {
  return vi.waitFor(
    async () => {
      const detail = await hub<RunDetail>(server, 'GET', `/runs/${runId}`);
      const { status } = detail.body.run;
      if (status === 'done' || status === 'stopped') return detail.body;
      throw new Error(`run ${runId} still ${status}: ${JSON.stringify(detail.body.run)}`);
    },
    { timeout, interval: 50 },
  );
}

export async function activityOf(server: RunningAppServer, listingId: string) {
  const response = await fetch(
    `${server.url}/hub/activity?listing=${encodeURIComponent(listingId)}`,
  );
  return ((await response.json()) as { entries: ActivityEntry[] }).entries;
}

/** A floor like a careful dealer's: 12 % fee, 10 % over cost, never below $15. */
export const FLOOR = {
  platformFeePercent: 12,
  margin: { kind: 'percent', percent: 10 },
  fixed: '15.00',
  withoutCost: 'skip',
} as const;

/** The sandbox's own record: how many `products/update` events each listing has had. */
export function updateEvents(world: World, ids: readonly string[]): Map<string, number> {
  const db = world.harness.sandbox.context.store.db;
  const count = db.prepare(
    "SELECT COUNT(*) AS n FROM events WHERE topic = 'products/update' AND resource_id = ?",
  );
  return new Map(ids.map((id) => [id, (count.get(id) as { n: number }).n]));
}

/** A markdown rule over one test's listings (by their grade), 10 % a step. */
export function markdownRule(grade: string, name = `Markdown ${grade}`) {
  return {
    name,
    scope: { grade, status: 'active' },
    action: {
      kind: 'markdown',
      afterDays: 0,
      step: { kind: 'percent', percent: 10 },
      everyDays: 7,
      ending: 'cent',
    },
    floor: FLOOR,
    caps: { maxListings: 1000 },
  };
}
