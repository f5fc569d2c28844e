import { queryOptions } from '@tanstack/react-query';
import type { SlabdeskClient } from '../../client';
import type { RuleRun } from './rules-api';
import { rulesKeys } from './rules-keys';

/** The rules' reads and their schemas, loaded with the first query: the catalogue asks only one. */
const rulesApi = () => import('./rules-api').then((module) => module.rulesApi);

const unfinished = (run: RuleRun | null | undefined) =>
  run?.status === 'running' || run?.status === 'paused';

/** The rules, their last runs, the reader's role and the pause line; polled while a run goes. */
export const rulesListQuery = (client: SlabdeskClient) =>
  queryOptions({
    queryKey: rulesKeys.list(),
    queryFn: async ({ signal }) => (await rulesApi()).list(client, signal),
    staleTime: 5_000,
    retry: false,
    refetchInterval: (query) =>
      query.state.data?.rules.some((rule) => unfinished(rule.lastRun)) ? 1_000 : false,
  });

export const ruleRunsQuery = (client: SlabdeskClient, ruleId: number) =>
  queryOptions({
    queryKey: rulesKeys.runs(ruleId),
    queryFn: async ({ signal }) => (await rulesApi()).runs(client, ruleId, signal),
    staleTime: 2_000,
    refetchInterval: (query) => (query.state.data?.runs.some(unfinished) ? 1_000 : false),
  });

export const ruleRunQuery = (client: SlabdeskClient, runId: number) =>
  queryOptions({
    queryKey: rulesKeys.run(runId),
    queryFn: async ({ signal }) => (await rulesApi()).runDetail(client, runId, signal),
    staleTime: 2_000,
    refetchInterval: (query) => (unfinished(query.state.data?.run) ? 1_000 : false),
  });

/** What a kept rule would change now (nothing is sent). */
export const rulePreviewQuery = (client: SlabdeskClient, ruleId: number) =>
  queryOptions({
    queryKey: rulesKeys.preview(ruleId),
    queryFn: async ({ signal }) => (await rulesApi()).preview(client, { ruleId }, signal),
    staleTime: 0,
    gcTime: 60_000,
  });

/** A listing's line: what a rule does next to it, and the rule that last changed it. */
export const listingRulesQuery = (client: SlabdeskClient, listingId: string) =>
  queryOptions({
    queryKey: rulesKeys.listing(listingId),
    queryFn: async ({ signal }) => (await rulesApi()).listing(client, listingId, signal),
    staleTime: 60_000,
    retry: false,
  });

/** The listings a rule changed (the catalogue's filter). */
export const touchedListingsQuery = (client: SlabdeskClient) =>
  queryOptions({
    queryKey: rulesKeys.touched(),
    queryFn: async ({ signal }) => (await rulesApi()).touched(client, signal),
    staleTime: 30_000,
    retry: false,
  });
