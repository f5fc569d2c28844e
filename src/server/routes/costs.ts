import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorName } from '../auth/roles';
import { refuse } from '../error-envelope';
import type { CostStore, KeptCost } from '../costs/cost-store';
import { amountToCents, formatCents } from '../../shared/money';

const ItemId = z
  .string()
  .min(1)
  .max(120)
  .regex(/^[A-Za-z0-9_-]+$/, 'must be an inventory item id');
/** Dollars as the marketplace writes them: at most 1,000,000 (a listing's top price), 2 decimals. */
const Cost = z
  .string()
  .transform(amountToCents({ max: 100_000_000, above: 'must be at most 1,000,000.00' }));
const CostBody = z.strictObject({ cost: Cost.nullable() });
const CostParams = z.object({ itemId: ItemId });

/** A kept cost as the browser reads it: dollars as text, as the API writes money. */
const costView = ({ costCents, ...kept }: KeptCost) => ({ ...kept, cost: formatCents(costCents) });

/** The seller's kept costs under `/hub/costs`: viewers read them, editors and owners set them. */
export const costRoutes: FastifyPluginAsyncZod<{ store: CostStore; now?: () => Date }> = async (
  app,
  deps,
) => {
  app.get('/hub/costs', { config: { access: 'viewer' } }, async () => ({
    costs: deps.store.all().map(costView),
  }));

  app.put(
    '/hub/costs/:itemId',
    {
      bodyLimit: 1024,
      config: { access: 'editor', action: 'set costs' },
      schema: { params: CostParams, body: CostBody },
    },
    async (request, reply) => {
      const setBy = actorName(request);
      const at = (deps.now?.() ?? new Date()).toISOString();
      const done = deps.store.set(request.params.itemId, request.body.cost, at, setBy);
      if ('full' in done) {
        return refuse(reply, 507, 'costs_full', 'The hub keeps no more costs: it holds its most.');
      }
      return { cost: done.kept ? costView(done.kept) : null };
    },
  );
};
