import { describe, expect, it } from 'vitest';
import { createClient, type ListingWrite } from '../../src/client';
import { listingWriteQueue } from '../../src/client/listing-write-queue';

describe('the client write queue, as the bulk runner uses it', () => {
  it('sends a restored write with the key it already has, and gives others a fresh one', () => {
    const queue = listingWriteQueue(
      createClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'svc_live_x' }),
    );
    queue.pause(); // nothing is sent
    const restored: ListingWrite = { kind: 'update', id: 'lst_1', patch: { price: '90.00' } };
    const fresh: ListingWrite = { kind: 'delete', id: 'lst_2' };
    const [a, b] = queue.add([restored, fresh], {
      keyOf: (op) => (op.kind === 'create' ? undefined : op.id),
      idempotencyKeyOf: (op) => (op === restored ? 'kept-key-1' : undefined),
    });
    expect(a!.idempotencyKey).toBe('kept-key-1');
    expect(b!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    queue.cancel();
    expect(queue.progress()).toMatchObject({ cancelled: 2, pending: 0, running: 0 });
  });
});
