import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useApiClient } from '../api-context';
import { learnFeeRate, type FeeRate } from './fee-rate';
import { ordersQuery } from '../orders/order-queries';
import { useCardFacts, type CardFacts } from '../inventory/inventory-queries';

export interface MarginBasis {
  /** Undefined until the seller has a paid-out order to learn the rate from. */
  rate: FeeRate | undefined;
  /** `cost` (and grader) by inventory item id (a listing's `card.id`). */
  costs: ReadonlyMap<string, CardFacts> | undefined;
  ready: boolean;
  /** The orders or the inventory could not be read (a scope, an outage): no margin is shown. */
  failed: boolean;
}

/** The fee rate learned from the seller's paid orders and each card's cost, for margins. */
export function useMarginBasis(enabled = true): MarginBasis {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const orders = useQuery({ ...ordersQuery(client, queryClient), enabled });
  const costs = useCardFacts(enabled);
  const rate = useMemo(
    () => (orders.data ? learnFeeRate(orders.data.rows) : undefined),
    [orders.data],
  );
  const ready = orders.isSuccess && costs.data !== undefined;
  const failed = orders.isError || costs.isError;
  return useMemo(
    () => ({ rate, costs: costs.data, ready, failed }),
    [rate, costs.data, ready, failed],
  );
}
