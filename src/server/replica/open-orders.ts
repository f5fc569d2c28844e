import type { SlabdeskClient } from '../../client';
import type { ReplicaStore } from './replica-store';

/**
 * Whether the API's `status=open` filter holds an order, where its timestamps do not say (the spec
 * calls a delivered order closed, which no list-view field shows): noted on the row as
 * `slabdesk_open`, so no browser asks the API again.
 */

/** An order whose timestamps leave open or closed undecided. */
export const undecidedOrder = (order: Record<string, unknown>): boolean =>
  !order.cancelled_at && !order.closed_at;

/**
 * Notes on each of `ids` whether the open filter holds it: the open ids among the orders changed
 * `since` (the same moment as the read that found them), or all of them after a whole read.
 */
export async function noteOpenOrders(
  client: SlabdeskClient,
  store: ReplicaStore,
  ids: readonly string[],
  since: string | undefined,
  signal: AbortSignal,
): Promise<number> {
  if (ids.length === 0) return 0;
  const open = new Set<string>();
  for await (const page of client.orders.pages({
    status: 'open',
    fields: ['id'],
    limit: 250,
    priority: 'background',
    signal,
    ...(since ? { updatedAtMin: since } : {}),
  })) {
    for (const row of page.rows) open.add(row.id);
  }
  let applied = 0;
  for (const id of ids) {
    const outcome = store.patch(
      'orders',
      id,
      { slabdesk_open: open.has(id) },
      { updatedAt: null, whole: false },
    );
    if (outcome !== 'unknown' && outcome.applied) applied++;
  }
  return applied;
}
