import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { SlabdeskClient } from '../../client';
import { useApiClient } from '../api-context';
import { listingKeys } from '../listings/listing-keys';
import { rulesApi, type RuleDefinition, type RulesList } from './rules-api';
import { rulesKeys } from './rules-keys';

/** A rules write, then the rules' views it makes `stale` read again (all of them by default). */
function useRulesWrite<A, T>(
  write: (client: SlabdeskClient, argument: A) => Promise<T>,
  stale: readonly unknown[] = rulesKeys.all(),
  shown?: (queryClient: QueryClient, answer: T) => void,
) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (argument: A) => write(client, argument),
    onSuccess: (answer: T) => {
      shown?.(queryClient, answer);
      return queryClient.invalidateQueries({ queryKey: stale });
    },
  });
}

export const useCreateRule = () => useRulesWrite(rulesApi.create, rulesKeys.list());

export const useUpdateRule = (ruleId: number) =>
  useRulesWrite(
    (client, change: { definition?: RuleDefinition; enabled?: boolean }) =>
      rulesApi.update(client, ruleId, change),
    rulesKeys.all(),
    // The answer is the rule as kept: shown at once, before the list is read again.
    (queryClient, { rule }) =>
      queryClient.setQueryData(
        rulesKeys.list(),
        (list: RulesList | undefined) =>
          list && { ...list, rules: list.rules.map((kept) => (kept.id === rule.id ? rule : kept)) },
      ),
  );

export const useRunRule = (ruleId: number) =>
  useRulesWrite((client, plan: string) => rulesApi.run(client, ruleId, plan));

export const useDeleteRule = (ruleId: number) =>
  useRulesWrite((client, _: void) => rulesApi.remove(client, ruleId));

export const useUndoRun = () => useRulesWrite(rulesApi.undo);

/** After a run or an undo ends: the listings it changed are read again. */
export function useRefreshAfterRun() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: listingKeys.all });
    void queryClient.invalidateQueries({ queryKey: rulesKeys.all() });
  };
}
