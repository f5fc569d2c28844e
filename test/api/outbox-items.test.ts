// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Outbox, useOutboxItems } from '../../src/api/outbox/outbox';

describe('useOutboxItems', () => {
  it('reads in the writes kept in this browser, with nothing else on the page loading them', async () => {
    // A write kept by an earlier visit (another instance: the page's own has read nothing yet).
    await new Outbox(indexedDB).add({
      kind: 'set-price',
      label: 'New price for Mbappé #77',
      listingId: 'lst_1',
      price: '10.00',
      fromPrice: '12.00',
      listingUpdatedAt: null,
      idempotencyKey: 'key-1',
    });
    const { result } = renderHook(() => useOutboxItems());
    await waitFor(() =>
      expect(result.current.map((item) => [item.kind, item.state])).toEqual([
        ['set-price', 'waiting'],
      ]),
    );
  });
});
