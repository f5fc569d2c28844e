import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client';
import { DEMO_LIVE_TOKEN } from '../../src/sandbox';
import { startHarness, type Harness } from '../support/sandbox-harness';
import { TEST_SHAPES } from '../support/test-shapes';
import { startFaultProxy, type FaultProxy } from './fault-proxy';

/**
 * Every view read tolerantly (issue 35, item 2): a server that leaves out any one documented field
 * of a record (a top-level field, or one inside a nested object), or sends it in a type that
 * cannot be read, still has the record read, with that field absent, never guessed; a field sent
 * in a wrong type is named. A tiny proxy in front of the real sandbox strips (or spoils) one field
 * of every served record at a time.
 */
let h: Harness;
let proxy: FaultProxy;
/** What the proxy does to each record of the envelope now: nothing, or one (dotted) field. */
let change: { envelope: string; field: string; mode: 'strip' | 'spoil' } | undefined;

/** A value of a type the field cannot have: a number where it was not one, else a string. */
const spoiled = (value: unknown) => (typeof value === 'number' ? 'seven' : 7);

function rewrite(record: Record<string, unknown>, field: string, mode: 'strip' | 'spoil') {
  const [top, inner] = field.split('.') as [string, string | undefined];
  const holder = inner === undefined ? record : record[top];
  const key = inner ?? top;
  if (typeof holder !== 'object' || holder === null) return;
  const target = holder as Record<string, unknown>;
  if (!(key in target)) return;
  if (mode === 'strip') delete target[key];
  else target[key] = spoiled(target[key]);
}

beforeAll(async () => {
  h = await startHarness({ seed: 'demo', demoListings: 20, rateLimit: false, shapes: TEST_SHAPES });
  proxy = await startFaultProxy(h.url, {
    rewriteBody: (body) => {
      if (!change) return body;
      let parsed: Record<string, unknown>;
      try {
        parsed = JSON.parse(body) as Record<string, unknown>;
      } catch {
        return body;
      }
      const served = parsed[change.envelope];
      if (typeof served !== 'object' || served === null) return body;
      const records = Array.isArray(served) ? served : [served];
      for (const record of records as Record<string, unknown>[]) {
        rewrite(record, change.field, change.mode);
      }
      return JSON.stringify(parsed);
    },
  });
});
afterAll(async () => {
  await proxy?.close();
  await h?.close();
});

const api = () => createClient({ baseUrl: proxy.url, apiKey: DEMO_LIVE_TOKEN });

/** The records of a view as this sandbox serves it (a single view as a list of one). */
async function served(path: string, envelope: string): Promise<Record<string, unknown>[]> {
  const response = await h.api(path, { token: DEMO_LIVE_TOKEN });
  const body = ((await response.json()) as Record<string, unknown>)[envelope];
  const records = (Array.isArray(body) ? body : [body]) as Record<string, unknown>[];
  expect(records.length).toBeGreaterThan(0);
  return records;
}

/**
 * The documented fields each record of the view is served with, but its key: the top-level ones
 * and those inside nested objects (`svc_payout.amount`), as dotted paths.
 */
async function servedFields(path: string, envelope: string, key: string | undefined) {
  const fields = new Set<string>();
  for (const record of await served(path, envelope)) {
    for (const [name, value] of Object.entries(record)) {
      if (name === key) continue;
      fields.add(name);
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
        for (const inner of Object.keys(value)) fields.add(`${name}.${inner}`);
      }
    }
  }
  return [...fields];
}

/** A field of a read record by its dotted path. */
function valueAt(row: Record<string, unknown>, field: string): unknown {
  const [top, inner] = field.split('.') as [string, string | undefined];
  if (inner === undefined) return row[top];
  const holder = row[top];
  return typeof holder === 'object' && holder !== null
    ? (holder as Record<string, unknown>)[inner]
    : undefined;
}

let orderId = '';
const firstOrderId = async () => {
  if (!orderId) {
    const [first] = await served('/orders.json?limit=1', 'orders');
    orderId = first!.id as string;
  }
  return orderId;
};

type Row = Record<string, unknown>;
interface View {
  name: string;
  /** The served path, or how to build it. */
  path: () => Promise<string> | string;
  envelope: string;
  /** The field every record keeps whatever happens (none for ping). */
  key: string | undefined;
  read: () => Promise<Row[]>;
}

const rows = <T>(list: T[]) => list as unknown as Row[];

const VIEWS: View[] = [
  {
    name: 'inventory items',
    path: () => '/inventory_items.json?limit=250',
    envelope: 'inventory_items',
    key: 'id',
    read: async () => rows((await api().inventoryItems.loadAll()).rows),
  },
  {
    name: 'inventory levels',
    path: () => '/inventory_levels.json?limit=250',
    envelope: 'inventory_levels',
    key: 'inventory_item_id',
    read: async () => rows((await api().inventoryLevels.loadAll()).rows),
  },
  {
    name: 'locations',
    path: () => '/locations.json',
    envelope: 'locations',
    key: 'id',
    read: async () => rows((await api().locations.list()).data),
  },
  {
    name: 'orders (list view)',
    path: () => '/orders.json?limit=250',
    envelope: 'orders',
    key: 'id',
    read: async () => rows((await api().orders.loadAll()).rows),
  },
  {
    name: 'an order (single view)',
    path: async () => `/orders/${await firstOrderId()}.json`,
    envelope: 'order',
    key: 'id',
    read: async () => rows([(await api().orders.get(await firstOrderId())).data]),
  },
  {
    name: 'ping',
    path: () => '/ping',
    envelope: 'ping',
    key: undefined,
    read: async () => rows([(await api().ping()).data]),
  },
];

describe.each(VIEWS)('$name, each documented field missing or unreadable in turn', (view) => {
  it('keeps every record, with that field absent, never guessed; a mistyped one named', async () => {
    change = undefined;
    const path = await view.path();
    const keysOf = (list: Row[]) => list.map((row) => String(view.key ? row[view.key] : 1)).sort();
    const keys = keysOf(await view.read());
    const fields = await servedFields(path, view.envelope, view.key);
    expect(fields.length).toBeGreaterThan(5);
    // Which record was served with which field (the hub's location alone has a country).
    const servedWith = new Map<string, Row>(
      (await served(path, view.envelope)).map((record) => [keysOf([record])[0]!, record]),
    );
    for (const mode of ['strip', 'spoil'] as const) {
      for (const field of fields) {
        change = { envelope: view.envelope, field, mode };
        try {
          const read = await view.read();
          expect(keysOf(read), `${mode} ${field}`).toEqual(keys);
          for (const row of read) {
            expect(valueAt(row, field), `${mode} ${field} of ${keysOf([row])[0]}`).toBeUndefined();
            const named = (row.unreadable as string[] | undefined) ?? [];
            // A field sent in a wrong type is always named; one left out is simply not there
            // (an optional field) or named (a documented one).
            const had = valueAt(servedWith.get(keysOf([row])[0]!) ?? {}, field) !== undefined;
            if (mode === 'spoil' && had) expect(named, `${mode} ${field}`).toContain(field);
          }
        } finally {
          change = undefined;
        }
      }
    }
  });
});
