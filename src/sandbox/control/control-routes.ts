import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { SandboxContext } from '../context';
import { ControlError, parseControl as parse, requireSeller as sellerIn } from './control-error';
import { createSeller, keyView, mintKey, sellerView } from '../domain/accounts';
import { faultSwitches } from '../domain/faults';
import { GRADERS, createInventoryItem, normalizeCategory } from '../domain/inventory';
import {
  CANCEL_REASONS,
  advanceOrder,
  cancelOrder,
  refundOrder,
  sellListing,
} from '../domain/marketplace';
import { ITEM_HOLDS, SELLER_STATES } from '../store/rows';
import { centsOf } from '../../shared/money';
import { isoTime } from '../platform/time';
import { ALL_SCOPES } from '../platform/scopes';
import { orderView } from '../serializers/order-view';
import { inventoryItemView } from '../serializers/inventory-views';
import { DEMO_LIVE_TOKEN, DEMO_SELLER_ID, DEMO_TEST_TOKEN } from '../seed/demo-seed';

const sellerFields = z.object({
  state: z.enum(SELLER_STATES).optional(),
  write_approved: z.boolean().optional(),
  listing_cap: z.number().int().min(0).nullable().optional(),
});
const keyBody = z.object({
  seller_id: z.string().min(1),
  mode: z.enum(['live', 'test']),
  scopes: z.array(z.enum(ALL_SCOPES)),
});
const certBody = z.object({
  cert_number: z.string().min(1).max(40),
  grader: z.enum(GRADERS),
  title: z.string().min(1).max(180),
  grade: z.string().min(1).max(20),
  year: z.number().int().optional(),
  set: z.string().max(120).optional(),
  player: z.string().max(120).optional(),
  category: z.string().max(40).optional(),
  variant: z.string().max(120).optional(),
});
const itemBody = z.object({
  seller_id: z.string().min(1),
  cert_number: z.string().min(1).max(40),
  grader: z.enum(GRADERS),
  grade: z.string().max(20).optional(),
  title: z.string().min(1).max(180).optional(),
  player: z.string().max(120).optional(),
  year: z.number().int().optional(),
  set: z.string().max(120).optional(),
  category: z.string().max(40).optional(),
  cost: z.union([z.string(), z.number()]).optional(),
  test: z.boolean().optional(),
  hold: z.enum(ITEM_HOLDS).nullable().optional(),
});

/** The control API (`../shared/spec/sandbox.md`): no key, no rate limit, errors `{error}`. */
export function registerControlRoutes(
  app: FastifyInstance,
  ctx: SandboxContext,
  hooks: {
    reset(seed: 'none' | 'demo'): void;
    /** Runs what became due on the marketplace clock (windows, schedules, webhook retries). */
    afterClockAdvance(now: number): Promise<void> | void;
  },
): void {
  const { store, ids } = ctx;
  const requireSeller = (id: string) => sellerIn(store, id);
  // The marketplace actions' context; they answer with the order as its single view shows it.
  const market = () => ({ store, ids, now: ctx.clock.now() });

  app.setErrorHandler((error, request, reply: FastifyReply) => {
    if (error instanceof ControlError) {
      return reply.status(error.status).send({ error: error.message });
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 413) return reply.status(413).send({ error: 'body too large' });
    if (status && status >= 400 && status < 500) {
      // A refused media type keeps its 415; any other client error is the control API's 400.
      const fallback = status === 415 ? 'JSON only' : 'bad request';
      return reply
        .status(status === 415 ? 415 : 400)
        .send({ error: error instanceof Error ? error.message : fallback });
    }
    request.log.error(error);
    return reply.status(500).send({ error: 'internal error' });
  });

  app.post('/_sandbox/reset', async (request) => {
    const body = parse(z.object({ seed: z.enum(['none', 'demo']).optional() }), request.body);
    hooks.reset(body.seed ?? 'none');
    return { ok: true };
  });

  app.get('/_sandbox/demo', async () => {
    const seller = store.accounts.seller(DEMO_SELLER_ID);
    if (!seller)
      throw new ControlError(
        404,
        'the demo seed is not loaded (POST /_sandbox/reset {"seed":"demo"})',
      );
    return {
      demo: {
        seller_id: seller.id,
        live_token: DEMO_LIVE_TOKEN,
        test_token: DEMO_TEST_TOKEN,
      },
    };
  });

  app.post('/_sandbox/sellers', async (request) => {
    const body = parse(sellerFields, request.body);
    const seller = createSeller(store, ids, ctx.clock.now(), body);
    return { seller: sellerView(seller) };
  });

  app.get<{ Params: { id: string } }>('/_sandbox/sellers/:id', async (request) => ({
    seller: sellerView(requireSeller(request.params.id)),
  }));

  app.patch<{ Params: { id: string } }>('/_sandbox/sellers/:id', async (request) => {
    const seller = requireSeller(request.params.id);
    const body = parse(sellerFields, request.body);
    store.accounts.updateSeller({
      id: seller.id,
      state: body.state ?? seller.state,
      write_approved:
        body.write_approved === undefined ? seller.write_approved : body.write_approved ? 1 : 0,
      listing_cap: body.listing_cap === undefined ? seller.listing_cap : body.listing_cap,
    });
    return { seller: sellerView(store.accounts.seller(seller.id)!) };
  });

  app.delete<{ Params: { id: string } }>('/_sandbox/sellers/:id', async (request) => {
    const seller = requireSeller(request.params.id);
    store.accounts.deleteSeller(seller.id);
    return { seller: sellerView(store.accounts.seller(seller.id)!) };
  });

  app.post('/_sandbox/keys', async (request) => {
    const body = parse(keyBody, request.body);
    requireSeller(body.seller_id);
    const key = mintKey(store, ids, ctx.clock.now(), { ...body, sellerId: body.seller_id });
    return { key: keyView(key.row, key.token) };
  });

  app.post<{ Params: { id: string } }>('/_sandbox/keys/:id/revoke', async (request) => {
    const key = store.accounts.key(request.params.id);
    if (!key) throw new ControlError(404, `key ${request.params.id} not found`);
    store.accounts.revokeKey(ctx.clock.now(), key.id);
    return { key: keyView(store.accounts.key(key.id)!) };
  });

  app.post('/_sandbox/certs', async (request) => {
    const body = parse(certBody, request.body);
    const cert = store.catalog.putCert({
      ...body,
      year: body.year ?? null,
      card_set: body.set ?? null,
      player: body.player ?? null,
      category: body.category ? normalizeCategory(body.category) : null,
      variant: body.variant ?? null,
    });
    const { cert_number, grader, title, grade, year, card_set: set, player, category } = cert;
    return { cert: { cert_number, grader, title, grade, year, set, player, category } };
  });

  app.post('/_sandbox/inventory_items', async (request) => {
    const body = parse(itemBody, request.body);
    requireSeller(body.seller_id);
    const cost = body.cost === undefined ? 0 : (centsOf(body.cost) ?? null);
    if (cost === null) throw new ControlError(400, 'cost: must be a dollar amount');
    const row = store.transaction(() =>
      createInventoryItem(
        store,
        ids,
        ctx.clock.now(),
        { sellerId: body.seller_id, test: body.test ?? false },
        { ...body, cost_cents: cost }, // the card's fields, as NewCard names them
      ),
    );
    return { inventory_item: inventoryItemView(row) };
  });

  app.put('/_sandbox/faults', async (request) => {
    const body = parse(faultSwitches.partial().strict(), request.body);
    return { faults: ctx.faults.set(body) };
  });

  app.get('/_sandbox/faults', async () => ({ faults: ctx.faults.get() }));

  app.post<{ Params: { id: string } }>('/_sandbox/listings/:id/sell', async (request) => {
    const body = parse(z.object({ via: z.enum(['checkout', 'offer']).optional() }), request.body);
    const order = sellListing(market(), request.params.id, body.via ?? 'checkout');
    return { order: orderView(order, true) };
  });

  app.post<{ Params: { id: string } }>('/_sandbox/orders/:id/advance', async (request) => {
    const order = advanceOrder(market(), request.params.id);
    return { order: orderView(order, true) };
  });

  app.post<{ Params: { id: string } }>('/_sandbox/orders/:id/cancel', async (request) => {
    const body = parse(
      z.object({
        reason: z.enum(CANCEL_REASONS).optional(),
      }),
      request.body,
    );
    const order = cancelOrder(market(), request.params.id, body.reason ?? 'buyer');
    return { order: orderView(order, true) };
  });

  app.post<{ Params: { id: string } }>('/_sandbox/orders/:id/refund', async (request) => {
    const body = parse(
      z.object({ amount: z.union([z.string(), z.number()]).optional() }),
      request.body,
    );
    const amount = centsOf(body.amount) ?? null;
    if (body.amount !== undefined && amount === null)
      throw new ControlError(400, 'amount: must be a dollar amount');
    const order = refundOrder(market(), request.params.id, amount);
    return { order: orderView(order, true) };
  });

  app.get('/_sandbox/clock', async () => ({ now: isoTime(ctx.clock.now()) }));

  app.post('/_sandbox/clock', async (request) => {
    const body = parse(
      z.object({
        advance_seconds: z
          .number()
          .min(0)
          .max(10 * 365 * 86400),
      }),
      request.body,
    );
    const now = ctx.clock.advance(body.advance_seconds);
    await hooks.afterClockAdvance(now);
    return { now: isoTime(now) };
  });
}
