import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PlatformState, SandboxContext } from '../context';
import { FieldErrors } from '../platform/api-error';
import {
  pageLinks,
  parseCollectionQuery,
  parseFields,
  single,
  type FilterSpec,
  type Query,
} from '../platform/collection-query';
import type { Page, PageRequest } from '../store/sql';
import type { Scope } from '../store/rows';
import { degradedRecord, pickFields } from '../serializers/shape';
import { publicUrls, type PublicUrls } from '../serializers/listing-views';
import { asciiPage } from '../../shared/ascii-json';

/** The authorized caller's records: its seller, live or test. */
export function callerScope(request: FastifyRequest): Scope {
  const platform = request.platform as PlatformState;
  return { sellerId: platform.seller!.id, test: platform.mode === 'test' };
}

export function origin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

export function urlsFor(request: FastifyRequest): PublicUrls {
  return publicUrls(origin(request));
}

/** Strips the optional `.json` suffix of a single-resource path segment. */
export const resourceId = (raw: string) => (raw.endsWith('.json') ? raw.slice(0, -5) : raw);

/** Renders one record, or its degraded form when the fault switch names it. */
export function render(
  ctx: SandboxContext,
  id: string,
  view: () => Record<string, unknown>,
  fields: readonly string[] | undefined,
): Record<string, unknown> {
  if (ctx.faults.isDegraded(id)) return degradedRecord(id);
  return pickFields(view(), fields);
}

/** Reads the `fields` parameter of a single-resource GET. */
export function singleFields(request: FastifyRequest): string[] | undefined {
  const errors = new FieldErrors();
  const fields = parseFields(single(request.query as Query, 'fields', errors), errors);
  errors.throwIfAny();
  return fields;
}

export interface CollectionRoute<Row> {
  /** The collection's name, also its envelope. */
  resource: string;
  filters?: readonly FilterSpec[];
  page(request: PageRequest, filters: Record<string, string>): Page<Row>;
  /** Row's keyset position and id, when not its own `seq` and `id`. */
  seq?(row: Row): number;
  id?(row: Row): string;
  view(row: Row): Record<string, unknown>;
}

/** Serves one page of a collection: parameters, keyset page, `Link` header, degraded records. */
export function sendCollection<Row>(
  ctx: SandboxContext,
  request: FastifyRequest,
  reply: FastifyReply,
  route: CollectionRoute<Row>,
) {
  const own = (row: Row) => row as { seq: number; id: string };
  const seqOf = route.seq ?? ((row: Row) => own(row).seq);
  const idOf = route.id ?? ((row: Row) => own(row).id);
  const cursors = { codec: ctx.cursors, epoch: ctx.epoch(), now: ctx.clock.now() };
  const query = parseCollectionQuery(
    request.query as Query,
    route.resource,
    route.filters ?? [],
    cursors,
  );
  // The query's own members are the page request's (limit, order, updated_at_min, position).
  const page = route.page({ ...query, scope: callerScope(request) }, query.filters);
  const path = request.url.split('?')[0] ?? '';
  const link = pageLinks(page, seqOf, query, cursors, `${origin(request)}${path}`);
  if (link) reply.header('Link', link);
  // A page is the bulk of what the sandbox writes: as ASCII bytes (see ascii-json.ts).
  reply.type('application/json; charset=utf-8');
  return asciiPage(
    route.resource,
    page.rows.map((row) => render(ctx, idOf(row), () => route.view(row), query.fields)),
  );
}
