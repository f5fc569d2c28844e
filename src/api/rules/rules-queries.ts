import { queryOptions } from '@tanstack/react-query';
import type { SlabdeskClient } from '../../client';
import { rulesApi, type RuleRun } from './rules-api';
import { rulesKeys } from './rules-keys';

const unfinished = (run: RuleRun | null | undefined) =>
  run?.status === 'running' || run?.status === 'paused';

/** The rules, their last runs, the reader's role and the pause line; polled while a run goes. */
export const rulesListQuery = (client: SlabdeskClient) =>
  queryOptions({
    queryKey: rulesKeys.list(),
    queryFn: ({ signal }) => rulesApi.list(client, signal),
    staleTime: 5_000,
    retry: false,
    refetchInterval: (query) =>
      query.state.data?.rules.some((rule) => unfinished(rule.lastRun)) ? 1_000 : false,
  });

export const ruleRunsQuery = (client: SlabdeskClient, ruleId: number) =>
  queryOptions({
    queryKey: rulesKeys.runs(ruleId),
    queryFn: ({ signal }) => rulesApi.runs(client, ruleId, signal),
    staleTime: 2_000,
    refetchInterval: (query) => (query.state.data?.runs.some(unfinished) ? 1_000 : false),
  });

export const ruleRunQuery = (client: SlabdeskClient, runId: number) =>
  queryOptions({
    queryKey: rulesKeys.run(runId),
    queryFn: ({ signal }) => rulesApi.runDetail(client, runId, signal),
    staleTime: 2_000,
    refetchInterval: (query) => (unfinished(query.state.data?.run) ? 1_000 : false),
  });

/** What a kept rule would change now (nothing is sent). */
export const rulePreviewQuery = (client: SlabdeskClient, ruleId: number) =>
  queryOptions({
    queryKey: rulesKeys.preview(ruleId),
    queryFn: ({ signal }) => rulesApi.preview(client, { ruleId }, signal),
    staleTime: 0,
    gcTime: 60_000,
  });

/** A listing's line: what a rule does next to it, and the rule that last changed it. */
export const listingRulesQuery = (client: SlabdeskClient, listingId: string) =>
  queryOptions({
    queryKey: rulesKeys.listing(listingId),
    queryFn: ({ signal }) => rulesApi.listing(client, listingId, signal),
    staleTime: 60_000,
    retry: false,
  });

/** The listings a rule changed (the catalogue's filter). */
export const touchedListingsQuery = (client: SlabdeskClient) =>
  queryOptions({
    queryKey: rulesKeys.touched(),
    queryFn: ({ signal }) => rulesApi.touched(client, signal),
    staleTime: 30_000,
    retry: false,
  });
