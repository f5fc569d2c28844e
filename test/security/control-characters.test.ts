import { describe, expect, it } from 'vitest';
import { hubForFile, ownCall } from './auth-http';

/**
 * The finding "a rule named `a\u0000b` is kept": a pricing rule's name (written into the activity
 * log as the person who changed each listing, and so into its CSV and its people filter) and the
 * show ledger's single-line texts (a show's name, a card's title, a trade-in's title, who paid
 * "other") took control characters (NUL, BEL, ESC, a line separator), kept them and handed them
 * to every later reader. Saved views already refused them; these now do too, by field.
 */

const hub = hubForFile();

const call = (method: string, path: string, value?: unknown) =>
  ownCall(hub.app, method, path, value);

const CONTROLS = ['a\u0000b', 'Sale\u0007', '\u001b[31mRed', 'One\u2028Two', 'Tab\u0085x'];

const rule = (name: string, viewName?: string) => ({
  name,
  scope: viewName === undefined ? {} : { viewName },
  action: {
    kind: 'markdown',
    afterDays: 0,
    step: { kind: 'percent', percent: 10 },
    everyDays: 7,
  },
  floor: { platformFeePercent: 10, margin: { kind: 'percent', percent: 10 }, fixed: '10.00' },
});

describe('control characters in names', () => {
  it('are refused in a pricing rule’s name and view name, by field, and no rule is kept', async () => {
    for (const name of CONTROLS) {
      const answer = await call('POST', '/hub/rules', rule(name));
      expect(answer.status, JSON.stringify(name)).toBe(422);
      expect(answer.json).toMatchObject({
        errors: { name: ['must not contain control characters'] },
        svc_error: { code: 'validation_error' },
      });
    }
    const view = await call('POST', '/hub/rules', rule('Old stock', 'View\u0000'));
    expect(view.status).toBe(422);
    expect(view.json).toMatchObject({ errors: { 'scope.viewName': [expect.any(String)] } });
    expect((await call('GET', '/hub/rules')).json).toMatchObject({ rules: [] });
    expect((await call('POST', '/hub/rules', rule('Old stock – 10 % «été»'))).status).toBe(201);
  });

  it('are refused in the show ledger’s texts, by field, and nothing is kept', async () => {
    for (const [index, name] of CONTROLS.entries()) {
      const answer = await call('POST', '/hub/shows', {
        key: `control-show-${index}`,
        name,
        date: '2026-11-28',
      });
      expect(answer.status, JSON.stringify(name)).toBe(422);
      expect(answer.json).toMatchObject({ errors: { name: [expect.any(String)] } });
    }
    expect((await call('GET', '/hub/shows')).json).toMatchObject({ shows: [] });

    const key = 'control-show-ok';
    expect(
      (await call('POST', '/hub/shows', { key, name: 'Philly', date: '2026-11-28' })).status,
    ).toBe(201);
    const sale = (title: string, note: string, traded: string) => ({
      key: 'control-sale-1',
      soldAt: '2026-11-28T15:20:00Z',
      listingId: 'lst_control_1',
      title,
      price: '100.00',
      tenders: [
        { kind: 'other', amount: '40.00', note },
        { kind: 'trade', amount: '60.00', title: traded },
      ],
      soldOnline: false,
      offMarket: 'deactivated',
    });
    const bad = await call(
      'POST',
      `/hub/shows/${key}/entries`,
      sale('Card\u0000', 'Venmo\u0007', 'Trade\u001b'),
    );
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.json.errors as object).sort()).toEqual(
      ['tenders.0.note', 'tenders.1.title', 'title'].sort(),
    );
    expect((await call('GET', `/hub/shows/${key}`)).json).toMatchObject({ entries: [] });
    expect(
      (await call('POST', `/hub/shows/${key}/entries`, sale('Card', 'Venmo', 'Trade'))).status,
    ).toBe(201);
  });
});
