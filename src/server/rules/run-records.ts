import type { RuleDefinition } from '../../shared/rule-definition';
import type { RunItem, RunRecord, WriteFields } from '../../shared/rule-answers';

/** A rule, its runs and their listings as the rules' store reads them back. */

export interface StoredRule {
  id: number;
  enabled: boolean;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
  /** When it was deleted (its runs kept); null while it stands. */
  deletedAt: string | null;
  definition: RuleDefinition;
}

export type { RunItem, RunRecord };
export type RunTrigger = RunRecord['trigger'];
export type RunStatus = RunRecord['status'];

export interface TouchedListing {
  listingId: string;
  ruleId: number;
  at: string;
  after: WriteFields;
}

export interface Sale {
  originalCents: bigint;
  saleCents: bigint;
}
