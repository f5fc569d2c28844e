import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeCursor, feedAnswer, feedBody } from '../../src/server/replica/replica-store';
import { ReplicaStore } from '../../src/server/replica/replica-store';
import { useDemoHub } from '../support/demo-hub';
import { rawBytes } from '../support/raw-http';

/** The replica's change feed: a snapshot in pages, then only what changed, by the hub's cursor. */

const row = (id: string, price: string, at = '2026-07-01T00:00:00Z') => ({
  id,
  body: { id, price, title: `Card ${id}`, updated_at: at },
  updatedAt: at,
});

/** Every answer from `cursor` until the feed says no more: the rows and the last cursor. */
function follow(store: ReplicaStore, cursor: string | undefined, limit: number) {
  const pages = [];
  let at = cursor;
  for (let i = 0; i < 50; i++) {
    const answer = feedAnswer(store, 'listings', decodeCursor(at), null, limit);
    pages.push(answer);
    at = answer.page.cursor;
    if (!answer.page.more) break;
  }
  const ids = pages.flatMap((page) =>
    page.rows.map((text) => (JSON.parse(text) as { id: string }).id),
  );
  return { pages, ids, cursor: at };
}

describe('the feed over the store', () => {
  it('gives a snapshot in pages, the changes made meanwhile after it, then only what changed', () => {
    const store = new ReplicaStore(':memory:');
    store.putMany(
      'listings',
      Array.from({ length: 7 }, (_, i) => row(`l${i}`, '10.00')),
    );
    // The first page of a snapshot of pages of three...
    const first = feedAnswer(store, 'listings', undefined, null, 3);
    expect(first.page.whole).toBe(true);
    expect(first.page.more).toBe(true);
    // ...while a row already sent changes and a new one comes: both follow the snapshot.
    store.put('listings', 'l0', row('l0', '11.00', '2026-07-02T00:00:00Z').body, {
      updatedAt: '2026-07-02T00:00:00Z',
      whole: true,
    });
    store.put('listings', 'l7', row('l7', '12.00').body, {
      updatedAt: '2026-07-01T00:00:00Z',
      whole: true,
    });
    const rest = follow(store, first.page.cursor, 3);
    expect(rest.pages.every((page) => !page.page.whole)).toBe(true);
    expect(rest.ids).toEqual(['l3', 'l4', 'l5', 'l6', 'l7', 'l0', 'l7']);

    // Nothing changed since: an empty answer, the same place.
    const idle = feedAnswer(store, 'listings', decodeCursor(rest.cursor), null, 3);
    expect(idle.rows).toEqual([]);
    expect(idle.page.more).toBe(false);
    // One change: that row alone.
    store.put('listings', 'l4', row('l4', '14.00', '2026-07-03T00:00:00Z').body, {
      updatedAt: '2026-07-03T00:00:00Z',
      whole: true,
    });
    const one = feedAnswer(store, 'listings', decodeCursor(idle.page.cursor), null, 3);
    expect(one.rows.map((text) => (JSON.parse(text) as { price: string }).price)).toEqual([
      '14.00',
    ]);
    store.close();
  });

  it('answers a cursor of another epoch, another replica or none it can read with a snapshot', () => {
    const store = new ReplicaStore(':memory:');
    store.putMany('listings', [row('a', '1.00'), row('b', '2.00')]);
    const { cursor } = follow(store, undefined, 10);
    expect(feedAnswer(store, 'listings', decodeCursor(cursor), null).page.whole).toBe(false);
    for (const sent of [
      'not-a-cursor',
      'e30',
      Buffer.from('{"replica":1}').toString('base64url'),
    ]) {
      expect(decodeCursor(sent)).toBeUndefined();
    }
    store.forgetAll();
    store.putMany('listings', [row('c', '3.00')]);
    const after = feedAnswer(store, 'listings', decodeCursor(cursor), null);
    expect(after.page.whole).toBe(true);
    expect(after.rows.map((text) => (JSON.parse(text) as { id: string }).id)).toEqual(['c']);
    const other = new ReplicaStore(':memory:');
    expect(feedAnswer(other, 'listings', decodeCursor(cursor), null).page.whole).toBe(true);
    store.close();
    other.close();
  });

  it('writes its answer in ASCII, a title past ASCII escaped, the same values', () => {
    const store = new ReplicaStore(':memory:');
    store.putMany('listings', [
      { id: 'm', body: { id: 'm', title: 'Kylian Mbappé · Pokémon 🃏' }, updatedAt: null },
    ]);
    const bytes = feedBody(feedAnswer(store, 'listings', undefined, null));
    expect(bytes.every((byte) => byte < 0x80)).toBe(true);
    const parsed = JSON.parse(bytes.toString('latin1')) as { rows: { title: string }[] };
    expect(parsed.rows[0]!.title).toBe('Kylian Mbappé · Pokémon 🃏');
    store.close();
  });
});

describe('the feed over HTTP', () => {
  const demo = useDemoHub({ demoListings: 60, rateLimit: false });

  it('answers each collection by name, refuses one it does not know and a cursor too long', async () => {
    for (const name of ['listings', 'orders', 'inventory_items', 'inventory_levels', 'locations']) {
      const answer = await fetch(`${demo.server.url}/hub/replica/${name}`);
      expect(answer.status).toBe(200);
      const body = (await answer.json()) as { whole: boolean; filled: boolean; rows: unknown[] };
      expect(body.whole).toBe(true);
      expect(body.filled).toBe(true);
      expect(body.rows.length).toBe(demo.server.replica.store.count(name as 'listings'));
    }
    // Refused as every route refuses what its schema does not take: 422, naming the field.
    const unknown = await fetch(`${demo.server.url}/hub/replica/secrets`);
    expect(unknown.status).toBe(422);
    expect(await unknown.json()).toMatchObject({
      errors: { collection: [expect.any(String)] },
      svc_error: { code: 'validation_error' },
    });
    const long = 'x'.repeat(600);
    const tooLong = await fetch(`${demo.server.url}/hub/replica/listings?cursor=${long}`);
    expect(tooLong.status).toBe(422);
    expect(await tooLong.json()).toMatchObject({ errors: { cursor: [expect.any(String)] } });
  });

  it('packs the rows for a browser that takes brotli or gzip, on this machine too, and sends them plain otherwise', async () => {
    const path = '/hub/replica/listings';
    const packed = await rawBytes(demo.server.url, path, {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(packed.headers['content-encoding']).toBe('gzip');
    const plain = await rawBytes(demo.server.url, path);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.every((byte) => byte < 0x80)).toBe(true);
    expect(packed.body.length).toBeLessThan(plain.body.length / 2);
    expect(gunzipSync(packed.body).equals(plain.body)).toBe(true);
    // A browser's own list: brotli, the fewer bytes on a phone's link.
    const brotli = await rawBytes(demo.server.url, path, {
      headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
    });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.body.length).toBeLessThan(packed.body.length);
    expect(brotliDecompressSync(brotli.body).equals(plain.body)).toBe(true);
  });
});
