// The IndexedDB globals the browser has (IDBKeyRange, ...); each test still opens its own factory.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import type { BulkJob, JobRow } from '../../src/features/listings/bulk-edit/jobs/job';
import {
  IdbJobStore,
  MemoryJobStore,
  type JobStore,
} from '../../src/features/listings/bulk-edit/jobs/job-store';

function job(id: string, createdAt: number, rows = 3): BulkJob {
  return {
    id,
    createdAt,
    updatedAt: createdAt,
    state: 'running',
    label: `Bulk edit of ${rows} listings`,
    rows: Array.from({ length: rows }, (_, index): JobRow => ({
      index,
      listingId: `lst_${id}_${index}`,
      title: `Card ${index}`,
      writes: [
        {
          method: 'PUT',
          body: { price: `${20 + index}.00` },
          key: `key-${id}-${index}`,
          done: false,
        },
      ],
      outcome: { state: 'pending' },
      retries: 0,
    })),
  };
}

/**
 * The same contract for the browser's IndexedDB store (on fake-indexeddb, a complete
 * implementation of the IndexedDB API) and the in-memory store the runner tests use.
 */
describe.each([
  ['IndexedDB', () => new IdbJobStore(new IDBFactory())],
  ['memory', () => new MemoryJobStore()],
] as Array<[string, () => JobStore]>)('%s job store', (_name, makeStore) => {
  it('keeps a job with its rows and their idempotency keys, and lists newest first', async () => {
    const store = makeStore();
    await store.create(job('a', 1000));
    await store.create(job('b', 2000, 2));
    const kept = await store.get('a');
    expect(kept?.rows.map((row) => row.writes[0]!.key)).toEqual(['key-a-0', 'key-a-1', 'key-a-2']);
    expect(kept?.rows.map((row) => row.writes[0]!.body)).toEqual([
      { price: '20.00' },
      { price: '21.00' },
      { price: '22.00' },
    ]);
    expect((await store.list()).map((j) => [j.id, j.rows.length])).toEqual([
      ['b', 2],
      ['a', 3],
    ]);
    expect(await store.get('missing')).toBeUndefined();
  });

  it('saves one row as it lands and the state of the job, without touching the others', async () => {
    const store = makeStore();
    await store.create(job('a', 1000));
    const landed: JobRow = {
      ...job('a', 1000).rows[1]!,
      writes: [{ method: 'PUT', body: { price: '21.00' }, key: 'key-a-1', done: true }],
      outcome: { state: 'done', at: 5000 },
    };
    await store.saveRow('a', landed);
    await store.setState('a', 'paused');
    const kept = await store.get('a');
    expect(kept?.state).toBe('paused');
    expect(kept?.rows[1]).toEqual(landed);
    expect(kept?.rows[0]?.outcome).toEqual({ state: 'pending' });
    expect(kept?.rows[2]?.writes[0]?.done).toBe(false);
  });

  it('hands out copies: changing what it returned changes nothing kept', async () => {
    const store = makeStore();
    await store.create(job('a', 1000));
    const first = await store.get('a');
    first!.rows[0]!.writes[0]!.done = true;
    first!.state = 'finished';
    const again = await store.get('a');
    expect(again?.rows[0]?.writes[0]?.done).toBe(false);
    expect(again?.state).toBe('running');
  });

  it('removes a job and its rows', async () => {
    const store = makeStore();
    await store.create(job('a', 1000));
    await store.create(job('b', 2000));
    await store.remove('a');
    expect(await store.get('a')).toBeUndefined();
    expect((await store.list()).map((j) => j.id)).toEqual(['b']);
    // A job made again under the same id starts from its own rows only.
    await store.create(job('a', 3000, 1));
    expect((await store.get('a'))?.rows).toHaveLength(1);
  });
});

describe('IndexedDB job store across a reload', () => {
  it('a second store on the same database (a reloaded page) finds the job as it was saved', async () => {
    const factory = new IDBFactory();
    const before = new IdbJobStore(factory);
    await before.create(job('a', 1000));
    await before.saveRow('a', { ...job('a', 1000).rows[0]!, outcome: { state: 'done', at: 7 } });
    const after = new IdbJobStore(factory);
    const kept = await after.get('a');
    expect(kept?.rows[0]?.outcome).toEqual({ state: 'done', at: 7 });
    expect(kept?.rows[0]?.writes[0]?.key).toBe('key-a-0');
    expect((await after.list()).map((j) => j.id)).toEqual(['a']);
  });
});
