/** The pricing rules' query keys: the list, a rule's runs, one run, a listing's line. */
export const rulesKeys = {
  all: () => ['rules'] as const,
  list: () => [...rulesKeys.all(), 'list'] as const,
  runs: (ruleId: number) => [...rulesKeys.all(), 'runs', ruleId] as const,
  run: (runId: number) => [...rulesKeys.all(), 'run', runId] as const,
  preview: (ruleId: number) => [...rulesKeys.all(), 'preview', ruleId] as const,
  listing: (listingId: string) => [...rulesKeys.all(), 'listing', listingId] as const,
  touched: () => [...rulesKeys.all(), 'touched'] as const,
};
