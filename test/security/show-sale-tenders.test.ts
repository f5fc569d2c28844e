import { describe, expect, it } from 'vitest';
import { raw } from '../support/raw-http';
import { hubForFile, ownCall } from './auth-http';

/**
 * The finding "a sale whose split has one bad tender answers 500": a tender that failed its own
 * check (a note past 80 characters, a traded card's title past 300, a wrong field) was left unread,
 * so the sale's check that the split adds up to the price summed an amount that was not there and
 * threw writing NaN as dollars. The sale is refused by field, as any other bad tender is.
 */

const hub = hubForFile();

const post = (path: string, value: unknown) => ownCall(hub.app, 'POST', path, value);

const sale = (tenders: unknown[]) => ({
  key: 'tender-sale-1',
  soldAt: '2026-11-28T15:20:00Z',
  listingId: 'lst_tender_1',
  title: 'Card',
  price: '100.00',
  tenders,
  soldOnline: false,
  offMarket: 'deactivated',
});

describe('a sale with a tender that fails its own check', () => {
  it('is refused by field, not with a 500, and nothing is recorded', async () => {
    const key = 'tender-show-1';
    expect((await post('/hub/shows', { key, name: 'Philly', date: '2026-11-28' })).status).toBe(
      201,
    );
    const cash = { kind: 'cash', amount: '40.00' };
    const cases: [unknown[], string][] = [
      [[cash, { kind: 'other', amount: '60.00', note: 'x'.repeat(81) }], 'tenders.1.note'],
      [[cash, { kind: 'trade', amount: '60.00', title: 'x'.repeat(301) }], 'tenders.1.title'],
      [[{ kind: 'other', amount: '100.00', note: '' }], 'tenders.0.note'],
      [[cash, { kind: 'card', amount: '60.00', extra: 1 }], 'tenders.1'],
      [[cash, { kind: 'card', amount: '60.001' }], 'tenders.1.amount'],
      [[cash, { kind: 'card', amount: 60 }], 'tenders.1.amount'],
    ];
    for (const [tenders, field] of cases) {
      const answer = await post(`/hub/shows/${key}/entries`, sale(tenders));
      expect(answer.status, field).toBe(422);
      expect(answer.json).toMatchObject({ svc_error: { code: 'validation_error' } });
      expect(Object.keys(answer.json.errors as object), field).toContain(field);
    }
    for (const price of ['100.001', '-100.00', 'abc', '1e3']) {
      const answer = await post(`/hub/shows/${key}/entries`, { ...sale([cash]), price });
      expect(answer.status, price).toBe(422);
      expect(Object.keys(answer.json.errors as object), price).toContain('price');
    }
    const show = await raw(hub.app.url, `/hub/shows/${key}`);
    expect(JSON.parse(show.body)).toMatchObject({ entries: [] });
    const good = await post(
      `/hub/shows/${key}/entries`,
      sale([cash, { ...cash, amount: '60.00' }]),
    );
    expect(good.status).toBe(201);
  });
});
