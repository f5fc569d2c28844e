import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { refuse } from '../error-envelope';
import type { ViewStore } from '../views/view-store';
import { VIEW_LIMITS, VIEW_TABLES, VIEWS_PATH } from '../../shared/saved-views';

/**
 * Saved views under `/hub/views`, each account its own (sign-in off: the one seller's): every
 * device of an account reads the same views, and anyone signed in keeps their own.
 */

const NO_CONTROLS = /^[^\p{Cc}]*$/u;
const Table = z.enum(VIEW_TABLES);
const Name = z
  .string()
  .trim()
  .min(1, 'Give the view a name')
  .max(VIEW_LIMITS.name, `At most ${VIEW_LIMITS.name} characters`)
  .regex(NO_CONTROLS, 'Letters, figures and marks only');
const Search = z
  .string()
  .max(VIEW_LIMITS.search, 'The view’s filters are too long to keep')
  .regex(/^[^?#\s]*$/, 'must be search params (a=1&b=2)');
const TableQuery = z.strictObject({ table: Table });
const SaveBody = z.strictObject({ table: Table, name: Name, search: Search });
const DeleteBody = z.strictObject({ table: Table, name: Name });

/** Each person keeps their own views: any role may read and change them. */
const OWN = { access: 'viewer' } as const;
const BODY_LIMIT = 8 * 1024;

const accountOf = (request: FastifyRequest) =>
  request.admission.session?.name ?? request.admission.actor?.name ?? '';

export const viewRoutes: FastifyPluginAsyncZod<{ store: ViewStore; now?: () => Date }> = async (
  app,
  deps,
) => {
  const now = deps.now ?? (() => new Date());
  const views = (request: FastifyRequest, table: string) => ({
    views: deps.store.list(accountOf(request), table),
  });

  app.get(VIEWS_PATH, { config: OWN, schema: { querystring: TableQuery } }, (request, reply) =>
    reply.header('cache-control', 'no-store').send(views(request, request.query.table)),
  );

  app.put(
    VIEWS_PATH,
    { bodyLimit: BODY_LIMIT, config: OWN, schema: { body: SaveBody } },
    async (request, reply) => {
      const { table, name, search } = request.body;
      const view = { name, search, savedAt: now().toISOString() };
      if ('full' in deps.store.save(accountOf(request), table, view)) {
        const most = `A table keeps at most ${VIEW_LIMITS.perTable} views; delete one to save another`;
        return refuse(reply, 422, 'validation_error', { name: [most] });
      }
      return reply.header('cache-control', 'no-store').send({ view, ...views(request, table) });
    },
  );

  app.delete(
    VIEWS_PATH,
    { bodyLimit: BODY_LIMIT, config: OWN, schema: { body: DeleteBody } },
    async (request, reply) => {
      const { table, name } = request.body;
      const deleted = deps.store.remove(accountOf(request), table, name);
      return reply.header('cache-control', 'no-store').send({ deleted, ...views(request, table) });
    },
  );
};
