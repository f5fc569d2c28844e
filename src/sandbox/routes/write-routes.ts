import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context';
import { commitCreate, resolveCreate } from '../domain/listing-create';
import { parseCreate, parseUpdate } from '../domain/listing-input';
import { assertWriteApproved, type WriteContext } from '../domain/listing-rules';
import { deactivateListing, updateListing } from '../domain/listing-update';
import { ApiError, errorEnvelope } from '../platform/api-error';
import {
  IdempotencyGuard,
  isFinalStatus,
  requestHash,
  type IdempotentRun,
  type Outcome,
} from '../platform/idempotency';
import type { PlatformState } from './request-pipeline';
import type { ListingWithCardRow } from '../store/rows';
import {
  listingCreateView,
  listingDeleteView,
  listingUpdateView,
} from '../serializers/listing-write-views';
import { callerScope, resourceId, urlsFor, viewsOf } from './respond';

/** Runs `fn` in one transaction with the idempotent outcome it produces. */
type Commit = (fn: (ctx: WriteContext) => Outcome) => Outcome;

/** One listing write: idempotency, handler, then change and outcome committed together. */
async function runWrite(
  ctx: SandboxContext,
  guard: IdempotencyGuard,
  request: FastifyRequest,
  reply: FastifyReply,
  handler: (write: WriteContext, commit: Commit) => Promise<Outcome>,
) {
  const platform = request.platform as PlatformState;
  const idemKey = IdempotencyGuard.parseKey(request.headers['idempotency-key']);
  let run: IdempotentRun | undefined;
  if (idemKey !== undefined) {
    const path = (request.url.split('?')[0] ?? '').replace(/\.json$/, '');
    const admission = guard.admit(
      platform.key!.id,
      idemKey,
      requestHash(request.method, path, request.body),
    );
    if (admission.kind === 'replay') {
      reply.header('Idempotent-Replayed', 'true');
      return reply.status(admission.outcome.status).send(admission.outcome.body);
    }
    run = admission.run;
  }
  const writeContext = (): WriteContext => ({
    store: ctx.store,
    faults: ctx.faults,
    now: ctx.clock.now(),
    scope: callerScope(request),
    seller: platform.seller!,
    liveKey: platform.mode === 'live',
    loopbackImages: ctx.loopbackImages,
  });
  const commit: Commit = (fn) =>
    ctx.store.transaction(() => {
      const outcome = fn(writeContext());
      run?.record(outcome);
      return outcome;
    });
  try {
    const outcome = await handler(writeContext(), commit);
    if (ctx.faults.get().crash_after_write) {
      // The write and its outcome are committed; the answer is lost on the way (a crash).
      ctx.faults.set({ crash_after_write: false });
      reply.hijack();
      request.raw.socket.destroy();
      return reply;
    }
    return reply.status(outcome.status).send(outcome.body);
  } catch (error) {
    if (run && error instanceof ApiError && isFinalStatus(error.status)) {
      run.record({ status: error.status, body: errorEnvelope(error, request.id) });
    }
    throw error;
  } finally {
    run?.end();
  }
}

/** POST, PUT and DELETE on /listings and the /products aliases (scope `write_listings`). */
export function registerWriteRoutes(
  app: FastifyInstance,
  ctx: SandboxContext,
  guard: IdempotencyGuard,
): void {
  const config = { scope: 'write_listings' as const };
  const views = () => viewsOf(ctx);
  for (const resource of ['listings', 'products'] as const) {
    const product = resource === 'products';
    const asProduct = (request: FastifyRequest, row: ListingWithCardRow) => ({
      product: views().product(row, urlsFor(request)),
    });

    app.post(`/:version/${resource}.json`, { config }, (request, reply) =>
      runWrite(ctx, guard, request, reply, async (write, commit) => {
        assertWriteApproved(write);
        const input = parseCreate(request.body, { loopbackImages: ctx.loopbackImages });
        const resolved = await resolveCreate(write, input);
        return commit((fresh) => {
          const row = commitCreate(fresh, ctx.ids, input, resolved);
          return {
            status: 201,
            body: product
              ? asProduct(request, row)
              : { listing: listingCreateView(row, urlsFor(request)) },
          };
        });
      }),
    );

    app.put<{ Params: { id: string } }>(`/:version/${resource}/:id`, { config }, (request, reply) =>
      runWrite(ctx, guard, request, reply, async (write, commit) => {
        assertWriteApproved(write);
        const input = parseUpdate(request.body);
        return commit((fresh) => {
          const row = updateListing(fresh, ctx.ids, resourceId(request.params.id), input);
          return {
            status: 200,
            body: product ? asProduct(request, row) : { listing: listingUpdateView(row) },
          };
        });
      }),
    );

    app.delete<{ Params: { id: string } }>(
      `/:version/${resource}/:id`,
      { config },
      (request, reply) =>
        runWrite(ctx, guard, request, reply, async (write, commit) => {
          assertWriteApproved(write);
          return commit((fresh) => {
            const row = deactivateListing(fresh, ctx.ids, resourceId(request.params.id));
            return {
              status: 200,
              body: product ? asProduct(request, row) : { listing: listingDeleteView(row) },
            };
          });
        }),
    );
  }
}
