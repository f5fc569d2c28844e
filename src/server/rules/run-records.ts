import type { RuleDefinition } from '../../shared/rule-definition';
import type { WriteFields } from '../../shared/rule-answers';

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

export type RunTrigger = 'schedule' | 'manual' | 'undo';
export type RunStatus = 'running' | 'paused' | 'done' | 'stopped';
export type ItemState = 'pending' | 'done' | 'failed' | 'skipped';

export interface RunRecord {
  id: number;
  ruleId: number;
  trigger: RunTrigger;
  status: RunStatus;
  /** Who asked for it; null for the schedule or sign-in off. */
  by: string | null;
  startedAt: string;
  finishedAt: string | null;
  /** The seller's line while paused or after a stop. */
  note: string | null;
  /** Epoch ms after which a paused run tries again. */
  resumeAt: number | null;
  attempts: number;
  undoOf: number | null;
  undoneBy: number | null;
  counts: { changed: number; skipped: number; failed: number; pending: number };
  markdownCents: number;
}

export interface RunItem {
  runId: number;
  listingId: string;
  title: string;
  state: ItemState;
  /** Why it was left alone or failed (a SkipReason or the API's code). */
  reason: string | null;
  why: string;
  before: WriteFields;
  after: WriteFields;
  floorCents: number | null;
  markdownCents: number;
  idempotencyKey: string | null;
  /** The API's answer status once sent. */
  status: number | null;
  at: string | null;
}

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
