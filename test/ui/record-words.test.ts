import { describe, expect, it } from 'vitest';
import { changeLines, outcomeWords } from '../../src/lib/describe-change';
import type { ActivityEntry } from '../../src/api/activity/activity-api';
import { deliveryWords } from '../../src/features/events/delivery-words';
import { errorWords } from '../../src/lib/error-words';
import { reasonWords } from '../../src/features/rules/rule-words';
import { orderStage } from '../../src/api/orders/order-stage';
import type { Order } from '../../src/client';

/** Records in the seller's words (issue 42, item 1): formatted values, never raw JSON or codes. */
const entry = (over: Partial<ActivityEntry>): ActivityEntry => ({
  id: 1,
  at: '2026-11-27T10:00:00Z',
  actor: null,
  action: 'update',
  listingId: 'lst_1',
  bulkJobId: null,
  changes: {},
  outcome: 'ok',
  status: 200,
  code: null,
  requestId: 'req_1',
  ...over,
});

describe('an activity entry', () => {
  it('says prices as money, statuses in words, photos and nested card fields by their labels', () => {
    const lines = changeLines(
      entry({
        changes: {
          price: { before: '150', after: '135' },
          status: { before: 'active', after: 'draft' },
          images: { after: '[{"src":"https://img.example/a.jpg"}]' },
          card: {
            after: '{"title":"1986 Fleer Michael Jordan #57","grade":"6","grader":"PSA"}',
          },
        },
      }),
    );
    expect(lines).toEqual([
      'price $150.00 → $135.00',
      'status live → not live (draft)',
      'photos changed',
      'card title → 1986 Fleer Michael Jordan #57',
      'grade → 6',
      'grader → PSA',
    ]);
    for (const line of lines) expect(line).not.toMatch(/[{}[\]]/);
  });

  it('reads names an object inherits (constructor, toString) as plain words, never as code', () => {
    const lines = changeLines(
      entry({
        action: 'constructor',
        changes: {
          status: { before: 'active', after: 'constructor' },
          toString: { after: 'x' },
          card: { before: '{"grade":"9"}', after: '{"grade":"9","constructor":"y"}' },
        },
      }),
    );
    expect(lines).toEqual(['status live → Constructor', 'toString → x', 'constructor → y']);
    expect(lines.join(' ')).not.toMatch(/native code|function/);
    // A rule's item refused with such a code (kept as its reason) reads as a refusal.
    expect(reasonWords('constructor')).toBe('Refused by the marketplace');
  });

  it('says a cut-off nested value changed, never its JSON', () => {
    const lines = changeLines(entry({ changes: { card: { after: '{"title":"1986 Fl…' } } }));
    expect(lines).toEqual(['card details changed']);
  });

  it('says why a write was refused, in words, without the status or code', () => {
    const refused = outcomeWords(
      entry({ outcome: 'refused', status: 422, code: 'validation_error' }),
    );
    expect(refused).toBe('Not made: Some values were not accepted');
    expect(refused).not.toMatch(/422|validation_error/);
    expect(
      outcomeWords(entry({ outcome: 'refused', status: 403, code: 'x', message: 'Capped' })),
    ).toBe('Not made: Capped');
    // The marketplace's message names its rule by code: the code is spelled out.
    const message =
      'write_approval: this seller is not approved for listing writes with a live key';
    expect(outcomeWords(entry({ outcome: 'failed', status: 403, code: 'x', message }))).toBe(
      'Not made: write approval: this seller is not approved for listing writes with a live key',
    );
  });
});

describe('a webhook delivery', () => {
  it('reads a sale as "Sold: card as code", with the kept grade', () => {
    const order = {
      id: 'ord_1',
      name: 'SL-4F2K9Q',
      line_items: [{ title: '1986 Fleer Michael Jordan', product_id: 'lst_1' }],
    };
    expect(
      deliveryWords('orders/create', order, { knownName: '1986 Fleer Michael Jordan PSA 6' }),
    ).toEqual({
      what: 'Sold',
      about: '1986 Fleer Michael Jordan PSA 6 as SL-4F2K9Q',
    });
  });

  it('reads a price change as before → after, and a new listing with its price', () => {
    const product = (price: string) => ({
      id: 'lst_1',
      title: '1986 Fleer Michael Jordan',
      status: 'active',
      variants: [{ price }],
      svc_card: { grader: 'PSA', grade: '6' },
    });
    expect(
      deliveryWords('products/update', product('135.00'), { previousPrice: '150.00' }),
    ).toEqual({
      what: 'Price changed',
      about: '1986 Fleer Michael Jordan PSA 6 $150.00 → $135.00',
    });
    expect(deliveryWords('products/create', product('150.00')).what).toBe('Listing created');
  });

  it('without a body, says which kind of record changed, never the topic', () => {
    expect(deliveryWords('orders/updated', undefined).what).toBe('An order changed');
    expect(deliveryWords('constructor/update', undefined).what).toBe('Something changed');
  });
});

describe('errors', () => {
  it('say what happened and what to do for every code, and something for an unknown one', () => {
    const codes = ['not_found', 'cursor_loop', 'page_info_filter_mismatch', 'whatever', 'toString'];
    for (const code of codes) {
      const words = errorWords(code);
      expect(words.what.length).toBeGreaterThan(10);
      expect(words.next.length).toBeGreaterThan(5);
      expect(`${words.what} ${words.next}`).not.toMatch(/_/);
    }
  });
});

describe('an order stage', () => {
  const base = {
    cancelled_at: null,
    fulfillment_status: null,
    svc_seller_shipment: { status: 'pending_shipment' },
    svc_authentication: { status: 'pending' },
    svc_payout: { status: 'pending' },
  } as unknown as Order;
  it('follows the lifecycle fields, and puts a status it does not know under Other', () => {
    expect(orderStage(base)).toBe('to_ship');
    expect(
      orderStage({ ...base, svc_authentication: { status: 'passed' } } as unknown as Order),
    ).toBe('authenticated');
    expect(orderStage({ ...base, svc_payout: { status: 'paid' } } as unknown as Order)).toBe(
      'paid_out',
    );
    expect(orderStage({ ...base, svc_payout: { status: 'on_hold' } } as unknown as Order)).toBe(
      'other',
    );
    expect(orderStage({ ...base, cancelled_at: '2026-11-01T00:00:00Z' })).toBe('cancelled');
  });
});
