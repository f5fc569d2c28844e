import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApiClient } from '../api-context';
import { listingKeys } from '../listings/listing-keys';
import { rulesApi, type RuleDefinition, type RulesList } from './rules-api';
import { rulesKeys } from './rules-keys';

/** Rule writes refresh the rules' views; runs and undos change listings, so those too. */

export function useCreateRule() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (definition: RuleDefinition) => rulesApi.create(client, definition),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rulesKeys.list() }),
  });
}

export function useUpdateRule(ruleId: number) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: { definition?: RuleDefinition; enabled?: boolean }) =>
      rulesApi.update(client, ruleId, change),
    onSuccess: (answer) => {
      // The answer is the rule as kept: shown at once, before the list is read again.
      queryClient.setQueryData(
        rulesKeys.list(),
        (list: RulesList | undefined) =>
          list && {
            ...list,
            rules: list.rules.map((rule) => (rule.id === answer.rule.id ? answer.rule : rule)),
          },
      );
      return queryClient.invalidateQueries({ queryKey: rulesKeys.all() });
    },
  });
}

export function useRunRule(ruleId: number) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (plan: string) => rulesApi.run(client, ruleId, plan),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rulesKeys.all() }),
  });
}

export function useDeleteRule(ruleId: number) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => rulesApi.remove(client, ruleId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rulesKeys.all() }),
  });
}

export function useUndoRun() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (runId: number) => rulesApi.undo(client, runId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rulesKeys.all() }),
  });
}

/** After a run or an undo ends: the listings it changed are read again. */
export function useRefreshAfterRun() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: listingKeys.all });
    void queryClient.invalidateQueries({ queryKey: rulesKeys.all() });
  };
}
