import { describe, expect, it } from 'vitest';
import type { BulkJob, JobRow } from '../../src/features/listings/bulk-edit/jobs/job';
import {
  leavingOut,
  overlapping,
} from '../../src/features/listings/bulk-edit/jobs/overlap-warning';

function job(id: string, listings: string[], done: string[] = []): BulkJob {
  return {
    id,
    createdAt: 0,
    updatedAt: 0,
    state: 'running',
    label: `Bulk edit of ${listings.length} listings`,
    rows: listings.map((listingId, index): JobRow => ({
      index,
      listingId,
      title: `Card ${listingId}`,
      writes: [{ method: 'PUT', body: { price: '20.00' }, key: `${id}-${index}`, done: false }],
      outcome: done.includes(listingId) ? { state: 'done', at: 1 } : { state: 'pending' },
      retries: 0,
    })),
  };
}

describe('overlapping bulk jobs', () => {
  it('names the listings an unfinished job has still to write, not those it wrote', () => {
    const running = job('a', ['l1', 'l2', 'l3'], ['l1']);
    const next = job('b', ['l1', 'l2', 'l4']);
    expect(overlapping(next, [running]).map((row) => row.listingId)).toEqual(['l2']);
  });

  it('leaves finished and cancelled jobs, and the job itself, out of the comparison', () => {
    const next = job('b', ['l1', 'l2']);
    const finished = { ...job('a', ['l1']), state: 'finished' as const };
    const cancelled = { ...job('c', ['l2']), state: 'cancelled' as const };
    expect(overlapping(next, [finished, cancelled, next])).toEqual([]);
  });

  it('leaves listings out with their rows renumbered and says so in its label', () => {
    const next = job('b', ['l1', 'l2', 'l3']);
    const rest = leavingOut(next, new Set(['l2']));
    expect(rest.rows.map((row) => [row.index, row.listingId])).toEqual([
      [0, 'l1'],
      [1, 'l3'],
    ]);
    expect(rest.label).toBe('Bulk edit of 3 listings, 1 listing left out');
    expect(rest.rows[1]!.writes[0]!.key).toBe('b-2');
  });
});
