import { describe, expect, it, vi } from 'vitest';
import { serverLog } from '../../src/server/log';
import { jsonOfBytes } from '../../src/server/bounded-json';
import { nestingExceeds } from '../../src/shared/json-body';
import {
  ActivityRecorder,
  LastKnownListings,
  viewsOfAnswer,
  writeFields,
} from '../../src/server/activity/activity-recorder';
import { dayRange } from '../../src/server/routes/activity';
import { ActivityStore } from '../../src/server/activity/activity-store';

describe('the activity log parts', () => {
  it('reads JSON only when it is shallow and small enough, in linear time', () => {
    const deep = Buffer.from(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(jsonOfBytes(deep)).toBeUndefined();
    expect(nestingExceeds('{"a":"[[[[[[","b":[1,{"c":2}]}', 2)).toBe(true);
    expect(nestingExceeds('{"a":"[[[[[[","b":[1,{"c":2}]}', 3)).toBe(false);
    expect(jsonOfBytes(Buffer.from('{"a":1}'))).toEqual({ a: 1 });
    expect(jsonOfBytes(Buffer.from('{"a":'))).toBeUndefined();
    expect(jsonOfBytes(Buffer.from('"x"'), { maxBytes: 2, maxDepth: 5 })).toBeUndefined();
  });

  it('keeps at most its capacity of listings, the least recently seen going first', () => {
    const known = new LastKnownListings(3);
    for (const id of ['a', 'b', 'c']) known.learn(id, { price: '10.00' });
    known.learn('a', { title: 'A' });
    known.learn('d', { price: '20.00' });
    expect(known.size).toBe(3);
    expect(known.get('b')).toBeUndefined();
    expect(known.get('a')).toEqual({ price: '10.00', title: 'A' });
  });

  it('reads the listing and product shapes, and every write body form', () => {
    expect(
      viewsOfAnswer({
        products: [
          {
            id: 'p1',
            title: 'T',
            status: 'active',
            variants: [{ price: '12.00', svc_minimum_offer: null }],
            svc_accepts_offers: true,
          },
        ],
      }),
    ).toEqual([
      {
        id: 'p1',
        values: {
          title: 'T',
          status: 'active',
          price: '12.00',
          minimum_offer: null,
          accepts_offers: true,
        },
      },
    ]);
    expect(
      writeFields(
        { product: { variants: [{ price: '9.00' }], body_html: 'd', svc_promoted: true } },
        'update',
      ),
    ).toEqual({
      price: '9.00',
      description: 'd',
      promoted: true,
    });
    // A name given as `__proto__` stays data, and refused names are left out.
    expect(
      writeFields(JSON.parse('{"listing":{"__proto__":{"x":1},"price":"1"}}'), 'update'),
    ).toEqual({
      price: '1',
    });
  });

  it('turns a day in a zone into its instants, across a change of clocks', () => {
    expect(dayRange('2026-03-08', undefined)).toEqual({
      from: Date.UTC(2026, 2, 8),
      to: Date.UTC(2026, 2, 9),
    });
    // New York moves its clocks on 8 March 2026: that day is 23 hours long.
    const ny = dayRange('2026-03-08', 'America/New_York')!;
    expect(ny.from).toBe(Date.UTC(2026, 2, 8, 5));
    expect(ny.to - ny.from).toBe(23 * 3_600_000);
    expect(dayRange('2026-13-01', undefined)).toBeNull();
    expect(dayRange('2026-01-01', 'Nowhere/Else')).toBeNull();
  });

  it('logs, never throws, when it cannot record', async () => {
    const store = new ActivityStore(':memory:');
    const recorder = new ActivityRecorder(store);
    store.close();
    const errors = vi.spyOn(serverLog, 'error').mockImplementation(() => undefined);
    try {
      recorder.observe({
        method: 'PUT',
        path: '/2026-07/listings/x.json',
        requestBody: Buffer.from('{"listing":{"price":"10.00"}}'),
        bulkJobId: undefined,
        status: 200,
        responseHeaders: new Headers(),
        responseBody: Buffer.from('{}'),
        actor: null,
      });
      await new Promise((resolve) => setImmediate(resolve));
      expect(errors).toHaveBeenCalledTimes(1);
    } finally {
      errors.mockRestore();
    }
  });

  it('learns the listings of a page whose path the upstream wrote without .json', () => {
    const store = new ActivityStore(':memory:');
    const recorder = new ActivityRecorder(store);
    const page = (path: string, id: string) => ({
      method: 'GET',
      path,
      requestBody: undefined,
      bulkJobId: undefined,
      status: 200,
      responseHeaders: undefined,
      responseBody: Buffer.from(JSON.stringify({ listings: [{ id, price: '12.00' }] })),
      actor: null,
    });
    recorder.take(page('/2026-07/listings', 'lst_a'));
    recorder.take(page('/2026-07/listings.json', 'lst_b'));
    recorder.take(page('/2026-07/orders', 'lst_c'));
    expect(recorder.lastKnown.get('lst_a')).toMatchObject({ price: '12.00' });
    expect(recorder.lastKnown.get('lst_b')).toMatchObject({ price: '12.00' });
    expect(recorder.lastKnown.get('lst_c')).toBeUndefined();
    store.close();
  });
});
