import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client';
import { DEMO_LIVE_TOKEN } from '../../src/sandbox';
import { startHarness, type Harness } from '../support/sandbox-harness';
import { TEST_SHAPES } from '../support/test-shapes';
import { startFaultProxy, type FaultProxy } from './fault-proxy';

/**
 * Every view read tolerantly (issue 35, item 2): a server that leaves out any one documented field
 * of a record, or sends it in a form that cannot be read, still has the record read, with that
 * field absent and named, never guessed. A tiny proxy in front of the real sandbox strips (or
 * spoils) one field of every served record at a time.
 */
let h: Harness;
let proxy: FaultProxy;
/** What the proxy does to each record of the envelope now: nothing, or one field. */
let change: { envelope: string; field: string; mode: 'strip' | 'spoil' } | undefined;

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
      const records = parsed[change.envelope];
      if (!Array.isArray(records)) return body;
      for (const record of records as Record<string, unknown>[]) {
        if (change.mode === 'strip') delete record[change.field];
        else record[change.field] = { spoiled: true };
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

/** The documented fields of each record as this sandbox serves it (all but the id). */
async function servedFields(path: string, envelope: string): Promise<string[]> {
  const response = await h.api(path, { token: DEMO_LIVE_TOKEN });
  const records = ((await response.json()) as Record<string, Record<string, unknown>[]>)[envelope]!;
  expect(records.length).toBeGreaterThan(0);
  return [...new Set(records.flatMap((record) => Object.keys(record)))].filter((k) => k !== 'id');
}

const VIEWS = [
  {
    name: 'inventory items',
    path: '/inventory_items.json?limit=250',
    envelope: 'inventory_items',
    read: async () => (await api().inventoryItems.loadAll()).rows,
  },
  {
    name: 'locations',
    path: '/locations.json',
    envelope: 'locations',
    read: async () => (await api().locations.list()).data,
  },
];

describe.each(VIEWS)('$name, each documented field missing or unreadable in turn', (view) => {
  it('keeps every record, with that field absent and named, never guessed', async () => {
    change = undefined;
    const whole = await view.read();
    const ids = whole.map((record) => record.id).sort();
    const fields = await servedFields(view.path, view.envelope);
    expect(fields.length).toBeGreaterThan(5);
    for (const mode of ['strip', 'spoil'] as const) {
      for (const field of fields) {
        change = { envelope: view.envelope, field, mode };
        try {
          const rows = (await view.read()) as unknown as Record<string, unknown>[];
          expect(rows.map((row) => row.id).sort(), `${mode} ${field}`).toEqual(ids);
          for (const row of rows) {
            expect(row[field], `${mode} ${field} of ${String(row.id)}`).toBeUndefined();
            // An optional field left out is simply not there; any other is named.
            const named = (row.unreadable as string[] | undefined) ?? [];
            if (mode === 'spoil') expect(named, `${mode} ${field}`).toContain(field);
          }
        } finally {
          change = undefined;
        }
      }
    }
  });
});
