import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  createClient,
  ListingCreated,
  ListingDeleted,
  ListingUpdated,
} from '../../src/client';
import { listingWriteQueue } from '../../src/client/listing-write-queue';
import { startHarness, type Harness } from '../support/sandbox-harness';
import { startFaultProxy } from './fault-proxy';

let h: Harness;
let certCounter = 0;
beforeAll(async () => {
  h = await startHarness({ seed: 'none' });
});
afterAll(() => h.close());

async function registerCert(): Promise<string> {
  const cert = `7${String(++certCounter).padStart(7, '0')}`;
  const res = await h.control('POST', '/certs', {
    cert_number: cert,
    grader: 'PSA',
    title: `Test card ${cert}`,
    grade: '9',
  });
  expect(res.status).toBe(200);
  return cert;
}

describe('listing writes', () => {
  it('creates, updates, deactivates and reactivates a listing', async () => {
    const { token } = await h.seller({ mode: 'live' });
    const api = createClient({ baseUrl: h.url, apiKey: token });
    const sku = await registerCert();
    const created = await api.listings.create({ sku, price: '120.00', grader: 'PSA' });
    expect(created.data).toMatchObject({ status: 'active', price: '120.00' });
    expect(created.data.card.cert_number).toBe(sku);
    const updated = await api.listings.update(created.data.id, {
      price: 150,
      accepts_offers: true,
      minimum_offer: '100.00',
    });
    expect(updated.data).toMatchObject({ price: '150.00', minimum_offer: '100.00' });
    const deleted = await api.listings.delete(created.data.id);
    expect(deleted.data).toMatchObject({
      status: 'archived',
      unavailable_reason: 'deactivated_by_seller',
      can_reactivate: true,
    });
    const again = await api.listings.reactivate(created.data.id, { durationHours: 168 });
    expect(again.data.status).toBe('active');
    const product = await api.products.get(created.data.id);
    expect(product.data.svc_duration_hours).toBe(168);
  });

  it('write response schemas name every field the sandbox serves', async () => {
    const { token } = await h.seller({ mode: 'live' });
    const keys = async (response: Response) =>
      Object.keys(((await response.json()) as { listing: object }).listing);
    const post = await h.api('/listings.json', {
      token,
      method: 'POST',
      body: { listing: { sku: await registerCert(), price: 30 } },
    });
    expect(post.status).toBe(201);
    const createdKeys = await keys(post.clone());
    const { listing } = (await post.json()) as { listing: { id: string } };
    expect(createdKeys.filter((k) => !(k in ListingCreated.shape))).toEqual([]);
    const put = await h.api(`/listings/${listing.id}.json`, {
      token,
      method: 'PUT',
      body: { listing: { price: 31 } },
    });
    expect((await keys(put)).filter((k) => !(k in ListingUpdated.shape))).toEqual([]);
    const del = await h.api(`/listings/${listing.id}.json`, { token, method: 'DELETE' });
    expect((await keys(del)).filter((k) => !(k in ListingDeleted.shape))).toEqual([]);
  });

  it('maps 422 field errors, 409 conflicts and 404s to ApiError codes', async () => {
    const { token } = await h.seller({ mode: 'live' });
    const api = createClient({ baseUrl: h.url, apiKey: token });
    const created = await api.listings.create({ sku: await registerCert(), price: 50 });
    const invalid = (await api.listings
      .update(created.data.id, { price: 5, title: '' })
      .catch((e: unknown) => e)) as ApiError;
    expect(invalid).toBeInstanceOf(ApiError);
    expect(invalid.status).toBe(422);
    expect(invalid.code).toBe('validation_error');
    expect(Object.keys(invalid.fieldErrors).sort()).toEqual(['price', 'title']);
    expect(invalid.requestId).toMatch(/^req_/);

    const missing = await api.listings.create({ sku: '99999999', price: 50 }).catch((e) => e);
    expect(missing).toMatchObject({ status: 422, code: 'cert_not_found' });

    await h.control('POST', `/listings/${created.data.id}/sell`, {});
    const sold = await api.listings.update(created.data.id, { price: 60 }).catch((e) => e);
    expect(sold).toMatchObject({ status: 409, code: 'listing_write_conflict' });
    await expect(api.listings.delete('lst_nope')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('keeps the Idempotency-Key across retries: a dropped answer is replayed, not repeated', async () => {
    const { token } = await h.seller({ mode: 'live' });
    let n = 0;
    const proxy = await startFaultProxy(h.url, {
      decide: (info) => (info.method === 'POST' && n++ === 0 ? 'drop_after' : 'pass'),
    });
    try {
      const replays: boolean[] = [];
      const api = createClient({
        baseUrl: proxy.url,
        apiKey: token,
        onResponse: (m) => replays.push(m.replayed),
      });
      const created = await api.listings.create({ sku: await registerCert(), price: '75.00' });
      expect(replays).toEqual([true]); // the first answer was lost; the retry got it replayed
      const posts = proxy.log.filter((e) => e.method === 'POST');
      expect(posts.map((e) => e.fault)).toEqual(['drop_after', 'pass']);
      expect(posts[0]!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
      expect(posts[1]!.idempotencyKey).toBe(posts[0]!.idempotencyKey);
      const all = await api.listings.loadAll();
      expect(all.rows.map((r) => r.id)).toEqual([created.data.id]);
    } finally {
      await proxy.close();
    }
  });

  it('a write without a retriable outcome fails at once, with its code', async () => {
    const { token } = await h.seller({ mode: 'live', seller: { write_approved: false } });
    const api = createClient({ baseUrl: h.url, apiKey: token });
    const error = await api.listings
      .create({ sku: await registerCert(), price: 20 })
      .catch((e) => e);
    expect(error).toMatchObject({ status: 403, code: 'listing_write_forbidden' });
    expect(api.transport.getState().counts.retried).toBe(0);
  });
});

describe('write queue', () => {
  it('reports per-item outcomes and progress, pauses, resumes and cancels', async () => {
    const { token } = await h.seller({ mode: 'live' });
    const api = createClient({ baseUrl: h.url, apiKey: token });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await api.listings.create({ sku: await registerCert(), price: 30 })).data.id);
    }
    const queue = listingWriteQueue(api, { concurrency: 2 });
    const events: number[] = [];
    queue.subscribe((p) => events.push(p.done + p.failed + p.cancelled));
    queue.pause();
    const items = queue.addWrites([
      { kind: 'update', id: ids[0]!, patch: { price: '31.00' } },
      { kind: 'update', id: ids[0]!, patch: { price: '32.00' } },
      { kind: 'update', id: ids[1]!, patch: { price: '5' } },
      { kind: 'delete', id: ids[2]! },
      { kind: 'update', id: ids[2]!, patch: { title: 'never sent' } },
    ]);
    expect(queue.progress()).toMatchObject({ total: 5, pending: 5, running: 0, paused: true });
    queue.cancel([items[4]!.id]);
    queue.resume();
    const settled = await queue.settled();
    expect(settled.map((i) => i.status)).toEqual(['done', 'done', 'failed', 'done', 'cancelled']);
    expect(settled[2]!.error?.code).toBe('validation_error');
    expect(settled[2]!.error?.fieldErrors.price).toBeDefined();
    expect(settled[4]!.error?.code).toBe('cancelled');
    expect(new Set(settled.map((i) => i.idempotencyKey)).size).toBe(5);
    expect(events.at(-1)).toBe(5);
    // Writes to the same listing ran in order: the second price won.
    expect((await api.listings.get(ids[0]!)).data.price).toBe('32.00');
    expect((await api.listings.get(ids[2]!)).data.title).not.toBe('never sent');
  });
});

describe('Retry-After outcomes of writes', () => {
  it('retries a create while the grader lookup is down, and it lands once', async () => {
    const { token } = await h.seller({ mode: 'live' });
    const statuses: number[] = [];
    let back: Promise<unknown> | undefined;
    const api = createClient({
      baseUrl: h.url,
      apiKey: token,
      onResponse: (m) => {
        statuses.push(m.status);
        // The lookup comes back while the client waits out Retry-After (5 s).
        if (m.status === 503) back = h.control('PUT', '/faults', { cert_lookup: 'ok' });
      },
    });
    await h.control('PUT', '/faults', { cert_lookup: 'unavailable' });
    const sku = await registerCert();
    const created = await api.listings.create({ sku, price: 25 });
    await back;
    expect(created.data.status).toBe('active');
    expect(statuses).toEqual([503, 201]);
    const all = await api.listings.loadAll();
    expect(all.rows.filter((r) => r.card?.cert_number === sku)).toHaveLength(1);
  }, 20_000);

  it('waits out idempotency_request_in_flight and retries with the same key', async () => {
    const { token } = await h.seller({ mode: 'live' });
    const direct = createClient({ baseUrl: h.url, apiKey: token });
    const created = await direct.listings.create({ sku: await registerCert(), price: 40 });
    let n = 0;
    const proxy = await startFaultProxy(h.url, {
      decide: (info) => (info.method === 'PUT' && n++ === 0 ? 'in_flight' : 'pass'),
    });
    try {
      const api = createClient({ baseUrl: proxy.url, apiKey: token });
      const updated = await api.listings.update(created.data.id, { title: 'Renamed' });
      expect(updated.data.title).toBe('Renamed');
      const puts = proxy.log.filter((e) => e.method === 'PUT');
      expect(puts.map((e) => e.fault)).toEqual(['in_flight', 'pass']);
      expect(puts[1]!.idempotencyKey).toBe(puts[0]!.idempotencyKey);
    } finally {
      await proxy.close();
    }
  });
});

describe('timeouts and aborts', () => {
  it('retries a write that timed out after the sandbox applied it, with the same key', async () => {
    const { token } = await h.seller({ mode: 'live' });
    const direct = createClient({ baseUrl: h.url, apiKey: token });
    const created = await direct.listings.create({ sku: await registerCert(), price: 40 });
    let n = 0;
    const proxy = await startFaultProxy(h.url, {
      decide: (info) => (info.method === 'PUT' && n++ === 0 ? 'stall_after' : 'pass'),
    });
    try {
      const api = createClient({ baseUrl: proxy.url, apiKey: token, timeoutMs: 300 });
      const metas: number[] = [];
      api.transport.subscribe(() => metas.push(api.transport.getState().counts.retried));
      const updated = await api.listings.update(created.data.id, { price: '41.00' });
      expect(updated.data.price).toBe('41.00');
      const puts = proxy.log.filter((e) => e.method === 'PUT');
      expect(puts.map((e) => e.fault)).toEqual(['stall_after', 'pass']);
      expect(puts[1]!.idempotencyKey).toBe(puts[0]!.idempotencyKey);
      expect(api.transport.getState().counts.retried).toBe(1);
    } finally {
      await proxy.close();
    }
  });

  it('a caller abort stops a write and reports code aborted', async () => {
    const { token } = await h.seller({ mode: 'live' });
    const direct = createClient({ baseUrl: h.url, apiKey: token });
    const created = await direct.listings.create({ sku: await registerCert(), price: 40 });
    const proxy = await startFaultProxy(h.url, { decide: () => 'stall_after' });
    try {
      const api = createClient({ baseUrl: proxy.url, apiKey: token });
      const controller = new AbortController();
      const pending = api.listings.update(
        created.data.id,
        { price: '45.00' },
        { signal: controller.signal },
      );
      // Aborted once the proxy holds it, its answer never to come.
      await vi.waitFor(() => expect(proxy.log).toHaveLength(1));
      controller.abort();
      await expect(pending).rejects.toMatchObject({ status: 0, code: 'aborted' });
      expect(proxy.log).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });
});
