import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { refuse } from '../error-envelope';
import type { CostStore, KeptCost } from '../costs/cost-store';
import { amountToCents, formatCents } from '../../shared/money';

/** The seller's kept costs under `/hub/costs`: viewers read them, editors and owners set them. */

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

const READ = { access: 'viewer' } as const;
const SET = { access: 'editor', action: 'set costs' } as const;
const BODY_LIMIT = 1024;

/** Who set a cost with sign-in off, as the show ledger names it. */
const THIS_COMPUTER = 'This computer';

/** A kept cost as the browser reads it: dollars as text, as the API writes money. */
const costView = (cost: KeptCost) => ({
  itemId: cost.itemId,
  cost: formatCents(cost.costCents),
  setAt: cost.setAt,
  setBy: cost.setBy,
});

export interface CostRouteDeps {
  store: CostStore;
  now?: () => Date;
}

export const costRoutes: FastifyPluginAsyncZod<CostRouteDeps> = async (app, deps) => {
  const now = deps.now ?? (() => new Date());

  app.get('/hub/costs', { config: READ }, async (_request, reply) =>
    reply.header('cache-control', 'no-store').send({ costs: deps.store.all().map(costView) }),
  );

  app.put(
    '/hub/costs/:itemId',
    { bodyLimit: BODY_LIMIT, config: SET, schema: { params: CostParams, body: CostBody } },
    async (request, reply) => {
      const setBy = request.admission.actor?.name ?? THIS_COMPUTER;
      const at = now().toISOString();
      const done = deps.store.set(request.params.itemId, request.body.cost, at, setBy);
      if ('full' in done) {
        return refuse(reply, 507, 'costs_full', 'The hub keeps no more costs: it holds its most.');
      }
      return reply
        .header('cache-control', 'no-store')
        .send({ cost: done.kept ? costView(done.kept) : null });
    },
  );
};
