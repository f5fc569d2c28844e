import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { refuse } from '../error-envelope';
import { ViewStore } from '../views/view-store';
import { VIEW_LIMITS, VIEW_TABLES, VIEWS_PATH } from '../../shared/saved-views';

const Table = z.enum(VIEW_TABLES);
const Name = z
  .string()
  .trim()
  .min(1, 'Give the view a name')
  .max(VIEW_LIMITS.name, `At most ${VIEW_LIMITS.name} characters`)
  .regex(/^[^\p{Cc}]*$/u, 'Letters, figures and marks only');
const Search = z
  .string()
  .max(VIEW_LIMITS.search, 'The view’s filters are too long to keep')
  .regex(/^[^?#\s]*$/, 'must be search params (a=1&b=2)');

/** Each person keeps their own views: any role may read and change them. */
const OWN = { config: { access: 'viewer' }, bodyLimit: 8 * 1024 } as const;

/** Sign-in off (no session): the one seller's views. */
const accountOf = (request: FastifyRequest) => request.admission.session?.name ?? '';

/** Saved views under `/hub/views`, each account's own, the same on every device it signs in on. */
export const viewRoutes: FastifyPluginAsyncZod<{ path: string; now?: () => Date }> = async (
  app,
  { path, now = () => new Date() },
) => {
  const store = new ViewStore(path);
  app.addHook('onClose', () => store.close());
  const views = (request: FastifyRequest, table: string) => ({
    views: store.list(accountOf(request), table),
  });

  app.get(
    VIEWS_PATH,
    { ...OWN, schema: { querystring: z.strictObject({ table: Table }) } },
    (request) => views(request, request.query.table),
  );

  const SaveBody = z.strictObject({ table: Table, name: Name, search: Search });
  app.put(VIEWS_PATH, { ...OWN, schema: { body: SaveBody } }, async (request, reply) => {
    const { table, name, search } = request.body;
    const view = { name, search, savedAt: now().toISOString() };
    if (!store.save(accountOf(request), table, view)) {
      const most = `A table keeps at most ${VIEW_LIMITS.perTable} views; delete one to save another`;
      return refuse(reply, 422, 'validation_error', { name: [most] });
    }
    return { view, ...views(request, table) };
  });

  const DeleteBody = z.strictObject({ table: Table, name: Name });
  app.delete(VIEWS_PATH, { ...OWN, schema: { body: DeleteBody } }, async (request) => {
    const { table, name } = request.body;
    return { deleted: store.remove(accountOf(request), table, name), ...views(request, table) };
  });
};
