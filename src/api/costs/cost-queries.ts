import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { SlabdeskClient } from '../../client';
import { useApiClient } from '../api-context';
import { keptAnswer, writeKept } from '../local-store';
import { fetchKeptCosts, putKeptCost, type KeptCost } from './cost-api';

/** The kept costs' one query-key factory. */
export const costKeys = {
  all: () => ['kept-costs'] as const,
};

/** The kept costs as last read, kept in this browser so a show with no network has them. */
const COSTS_KEPT = 'slabdesk-kept-costs';

export const keptCostsQuery = (client: SlabdeskClient) =>
  queryOptions({
    queryKey: costKeys.all(),
    ...keptAnswer(COSTS_KEPT, (signal) => fetchKeptCosts(client, signal)),
    staleTime: 30_000,
    retry: false,
  });

/** Sets (or forgets, `null`) a card's cost on our server; every reader of costs follows. */
export function useSetKeptCost(itemId: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (cost: string | null) => putKeptCost(client, itemId, cost),
    onSuccess: (kept) => {
      const next = [
        ...(queryClient.getQueryData<KeptCost[]>(costKeys.all()) ?? []).filter(
          (cost) => cost.itemId !== itemId,
        ),
        ...(kept ? [kept] : []),
      ];
      queryClient.setQueryData(costKeys.all(), next);
      writeKept(COSTS_KEPT, next);
    },
  });
}
