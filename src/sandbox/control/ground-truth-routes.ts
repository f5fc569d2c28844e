import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { SandboxContext } from '../context';
import { ControlError } from './control-error';
import { DEMO_SELLER_ID } from '../seed/demo-seed';
import { productView } from '../serializers/listing-views';
import { urlsFor } from '../routes/respond';

const ListQuery = z.object({
  seller_id: z.string().min(1).default(DEMO_SELLER_ID),
  test: z.enum(['true', 'false']).default('false'),
});

/** The sandbox's own word on its listings, in full product form whatever the shapes; no key. */
export function registerGroundTruthRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.get('/_sandbox/listings', async (request) => {
    const query = ListQuery.safeParse(request.query);
    if (!query.success) throw new ControlError(400, query.error.issues[0]!.message);
    const urls = urlsFor(request);
    const rows = ctx.store.listings.allOfSeller(query.data.seller_id, query.data.test === 'true');
    return { products: rows.map((row) => productView(row, urls)) };
  });

  app.get<{ Params: { id: string } }>('/_sandbox/listings/:id', async (request) => {
    const row = ctx.store.listings.getById(request.params.id);
    if (!row) throw new ControlError(404, `no listing ${request.params.id}`);
    return { product: productView(row, urlsFor(request)) };
  });
}
