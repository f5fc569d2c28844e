import * as z from 'zod/mini';
import { fields } from '../../shared/lazy-fields';
import type { SlabdeskClient } from '../../client';
import { callServer } from '../server-call';

/** Seller costs kept by our server (`/hub/costs`): the API has no write of `cost`. */

const KeptCost = z.object(
  fields({
    itemId: () => z.string(),
    cost: () => z.string(),
    setAt: () => z.string(),
    setBy: () => z.string(),
  }),
);
export type KeptCost = z.infer<typeof KeptCost>;

const COSTS_PATH = '/hub/costs';
const costPath = (itemId: string) => `${COSTS_PATH}/${encodeURIComponent(itemId)}`;

export const fetchKeptCosts = (client: SlabdeskClient, signal?: AbortSignal) =>
  callServer(client, z.object({ costs: z.array(KeptCost) }), COSTS_PATH, { signal }).then(
    (answer) => answer.costs,
  );

/** Sets a card's kept cost ("12.50"), or forgets it (`null`): a PUT, the same answer if sent twice. */
export const putKeptCost = (client: SlabdeskClient, itemId: string, cost: string | null) =>
  callServer(client, z.object({ cost: z.nullable(KeptCost) }), costPath(itemId), {
    method: 'PUT',
    body: { cost },
  }).then((answer) => answer.cost);
