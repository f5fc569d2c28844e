import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PlatformState, SandboxContext } from '../context';
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
import type { ListingWithCardRow } from '../store/rows';
import { WRITE_FIELDS } from '../serializers/documented-fields';
import { listingSingleView } from '../serializers/listing-views';
import { projectRecord } from '../serializers/shape';
import { callerScope, resourceId, urlsFor } from './respond';
import { readViews } from '../serializers/read-views';

/** A write's slow half (parse, lookups) resolving to its change, run in the commit's transaction. */
type Prepare = (
  write: WriteContext,
  request: FastifyRequest<{ Params: { id?: string } }>,
) => Promise<(fresh: WriteContext) => ListingWithCardRow>;

type WriteKind = keyof typeof WRITE_FIELDS;

/** One listing write: idempotency, approval, preparation, then change and outcome committed together. */
async function runWrite(
  ctx: SandboxContext,
  guard: IdempotencyGuard,
  request: FastifyRequest,
  reply: FastifyReply,
  answer: (row: ListingWithCardRow) => Outcome,
  prepare: Prepare,
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
  try {
    const write = writeContext();
    assertWriteApproved(write);
    const change = await prepare(write, request as FastifyRequest<{ Params: { id?: string } }>);
    const outcome = ctx.store.transaction(() => {
      const done = answer(change(writeContext()));
      run?.record(done);
      return done;
    });
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
  const idOf = (request: FastifyRequest<{ Params: { id?: string } }>) =>
    resourceId(request.params.id ?? '');
  const writes: Record<WriteKind, { method: 'POST' | 'PUT' | 'DELETE'; prepare: Prepare }> = {
    create: {
      method: 'POST',
      prepare: async (write, request) => {
        const input = parseCreate(request.body, { loopbackImages: ctx.loopbackImages });
        const resolved = await resolveCreate(write, input);
        return (fresh) => commitCreate(fresh, ctx.ids, input, resolved);
      },
    },
    update: {
      method: 'PUT',
      prepare: async (_write, request) => {
        const input = parseUpdate(request.body);
        return (fresh) => updateListing(fresh, ctx.ids, idOf(request), input);
      },
    },
    delete: {
      method: 'DELETE',
      prepare: async (_write, request) => (fresh) =>
        deactivateListing(fresh, ctx.ids, idOf(request)),
    },
  };
  for (const resource of ['listings', 'products'] as const) {
    for (const [kind, { method, prepare }] of Object.entries(writes) as [
      WriteKind,
      (typeof writes)[WriteKind],
    ][]) {
      app.route({
        method,
        url: kind === 'create' ? `/:version/${resource}.json` : `/:version/${resource}/:id`,
        config: { scope: 'write_listings' },
        handler: (request, reply) => {
          const urls = urlsFor(request);
          // The product shape on the alias paths, else exactly the spec's fields of the write.
          const answer = (row: ListingWithCardRow): Outcome => ({
            status: kind === 'create' ? 201 : 200,
            body:
              resource === 'products'
                ? { product: readViews(ctx.shapes).product(row, urls) }
                : { listing: projectRecord(listingSingleView(row, urls), WRITE_FIELDS[kind]) },
          });
          return runWrite(ctx, guard, request, reply, answer, prepare);
        },
      });
    }
  }
}
