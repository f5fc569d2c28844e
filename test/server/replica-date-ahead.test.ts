import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningAppServer } from '../../src/server/app-server';
import { startAppOver, startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { documentedListingRow } from '../support/listing-rows';

/**
 * An upstream whose `Date` header runs an hour ahead of the clock that stamps its records'
 * `updated_at` (a front server's clock, a zone written wrong): the reconciliation asked for rows
 * `updated_at_min` an hour ahead of every change, so a listing changed after the first round was
 * never read again (no webhook): its row kept the old price for good. The baseline is now the
 * earlier of our clock and the API's, so a `Date` ahead only makes a round read more.
 */
const HOUR_MS = 3_600_000;
let upstream: FakeUpstream;
let app: RunningAppServer;
const listing = {
  ...documentedListingRow,
  price: '250.00',
  updated_at: new Date(Date.now() - 60_000).toISOString(),
};

beforeAll(async () => {
  upstream = await startFakeUpstream((req, res) => {
    const url = new URL(req.url ?? '/', upstream.url);
    const collection = /\/2026-07\/(\w+)\.json$/.exec(url.pathname)?.[1] ?? '';
    const since = Date.parse(url.searchParams.get('updated_at_min') ?? '');
    const rows =
      collection !== 'listings'
        ? []
        : [listing].filter((row) => Number.isNaN(since) || Date.parse(row.updated_at) >= since);
    res
      .writeHead(200, {
        'content-type': 'application/json',
        date: new Date(Date.now() + HOUR_MS).toUTCString(),
      })
      .end(JSON.stringify({ [collection]: rows }));
  });
  app = await startAppOver(upstream.url, 'svc_live_DateAheadKey0000000000001');
});

afterAll(async () => {
  await app?.close();
  await upstream?.close();
});

const price = () => app.replica.store.row('listings', listing.id)?.body.price;

describe('a Date header an hour ahead of the records’ stamps', () => {
  it('still reads a change made after a round at the next one', async () => {
    await app.replica.ready();
    expect(price()).toBe('250.00');
    // A round: its baseline is read from the API's clock, as learned from its `Date`.
    await app.replica.round();
    Object.assign(listing, { price: '199.00', updated_at: new Date().toISOString() });
    await app.replica.round();
    expect(price()).toBe('199.00');
  });
});
