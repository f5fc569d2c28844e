import { isApiError, type SlabdeskClient } from '../../client';
import { CLIENT_ERROR_CODES } from '../../client/api-error';
import { exactCents } from '../../shared/money';
import type { ActivityChanges, ActivityStore, Scalar } from '../activity/activity-store';
import type { Upstream } from '../api-proxy';
import type { KeyGovernor } from '../governor/key-governor';
import { serverLog } from '../log';
import type { Replica } from '../replica/replica';
import { serverClient } from '../governed-call';
import { waitText } from '../upstream-pause';
import type { PlanItem } from './rule-plan';
import type { KeptCosts } from './replica-listings';
import type { RulesStore, RunItem, RunRecord, StoredRule } from './rules-store';
import { ownEntry } from '../../shared/own-entry';

/** Sends a run's recorded writes under their Idempotency-Keys, in the background, pausing as told. */

export interface RuleRunnerOptions {
  store: RulesStore;
  activity: ActivityStore | undefined;
  upstream: Upstream;
  governor: KeyGovernor | undefined;
  replica: Replica;
  /** Pauses a run takes before it stops and says so. */
  maxPauses?: number;
  /** The shortest wait of a paused run, in seconds. */
  minPauseSeconds?: number;
  /** The seller's costs kept by the hub, read over the marketplace's. */
  costs?: KeptCosts;
  /** The rules' clock (epoch ms): their schedule, pauses and their routes' session budget. */
  now?: () => number;
  /** How often the schedule and paused runs are looked at. */
  tickMs?: number;
}

/** An answer to one write, an error's as much as a success's (status -1: taken back; 0: unreached). */
interface ApiAnswer {
  status: number;
  code: string | null;
  retryAfter?: number | undefined;
  body?: unknown;
  requestId?: string | undefined;
}

type Halt = { kind: 'pause' | 'stop'; answer: ApiAnswer };

/** Writes in flight at once for one run; the governor paces them. */
const WIDTH = 4;
const PAUSE_S = { min: 30, max: 3_600, rateLimited: 1 };
const SLOW_DOWN = (wait: string) =>
  `Paused: the marketplace asked us to slow down${wait}. The rule carries on by itself.`;
const UNREACHED = () =>
  'Paused: the marketplace could not be reached. The rule tries again shortly.';
/** Codes that mean nothing more goes through now, and the run's line while it pauses. */
const PAUSE_WORDS: Record<string, (wait: string) => string> = {
  partner_api_writes_disabled: (wait) =>
    `Paused: the marketplace has switched off changes${wait}. The rule carries on by itself when they are back.`,
  partner_api_disabled: (wait) =>
    `Paused: the marketplace is down${wait}. The rule carries on by itself when it is back.`,
  upstream_paused: SLOW_DOWN,
  rate_limited: SLOW_DOWN,
  too_many_waiting: SLOW_DOWN,
  upstream_unreachable: UNREACHED,
  upstream_timeout: UNREACHED,
  internal_error: UNREACHED,
};
const pauseWords = (code: string | null) => ownEntry(PAUSE_WORDS, code);
const FORBIDDEN = 'the marketplace does not let this account change listings now';
const FAILURE_WORDS: Record<string, string> = {
  listing_write_conflict: 'the marketplace refused: sold or held meanwhile',
  not_found: 'the listing is gone',
  validation_error: 'the marketplace refused the new value',
  idempotency_key_reuse: 'the marketplace saw this change before with other values',
  listing_write_forbidden: FORBIDDEN,
};
const STOP_AGAIN = 'Nothing more is sent; check the account, then run the rule again.';

function refusalLine({ code }: ApiAnswer): string {
  if (code === 'listing_write_forbidden') return `Stopped: ${FORBIDDEN}. ${STOP_AGAIN}`;
  if (code?.startsWith('seller_') || code === 'insufficient_scope' || code === 'invalid_api_key') {
    return `Stopped: the marketplace refused the key or the account. ${STOP_AGAIN}`;
  }
  return 'Stopped: the marketplace refused the rule’s changes. Nothing more is sent.';
}

const ok = (status: number) => status >= 200 && status < 300;

/** The runs' sending half of the rule runner (rule-runner.ts): the same store, clock and close. */
export abstract class RunSender {
  protected readonly store: RulesStore;
  readonly now: () => number;
  private readonly active = new Map<number, Promise<void>>();
  private readonly abort = new AbortController();
  protected closed = false;
  /** Each write a background ticket of the governor under the rules' share. */
  private readonly client: SlabdeskClient;

  /** Called when a run pauses: the schedule's one timer wakes it at its `resumeAt`. */
  protected abstract arm(): void;

  constructor(protected readonly options: RuleRunnerOptions) {
    this.store = options.store;
    this.now = options.now ?? Date.now;
    // The client tries nothing again by itself: the run decides (a pause, a stop, the same key).
    this.client = serverClient(options.upstream, options.governor, {
      priority: 'background',
      share: 'server:rules',
      retry: { rateLimited: 0, unavailableBudgetSeconds: 0, transient: 0 },
    });
  }

  /** Stops sending: a write in flight stays pending, sent again under its key after a start. */
  async close(): Promise<void> {
    this.closed = true;
    this.abort.abort();
    await Promise.allSettled([...this.active.values()]);
  }

  sending(runId: number): boolean {
    return this.active.has(runId);
  }

  async settled(runId: number): Promise<void> {
    await this.active.get(runId);
  }

  private iso(): string {
    return new Date(this.now()).toISOString();
  }

  /** Records a run (a rule's or an undo's) with its plan, then sends it. */
  protected send(run: Omit<Parameters<RulesStore['createRun']>[0], 'at'>, items: PlanItem[]) {
    const runId = this.store.createRun({ ...run, at: this.iso() }, items);
    this.drive(runId);
    return this.store.run(runId)!;
  }

  protected drive(runId: number): void {
    if (this.closed || this.active.has(runId)) return;
    const work = this.sendRun(runId)
      .catch((error: unknown) => {
        // A thrown error never stops the server: the run pauses and is tried again.
        serverLog.error({ err: error, runId }, 'A pricing rule run failed');
        const note = 'Paused after an error on this server. The rule tries again shortly.';
        if (!this.closed) this.pause(runId, note, PAUSE_S.min);
      })
      .finally(() => this.active.delete(runId));
    this.active.set(runId, work);
  }

  private pause(runId: number, note: string, seconds: number): void {
    this.store.setRunStatus(runId, 'paused', { note, resumeAt: this.now() + seconds * 1000 });
    this.arm();
  }

  private async sendRun(runId: number): Promise<void> {
    const run = this.store.run(runId);
    if (!run) return;
    const rule = this.store.rule(run.ruleId);
    this.store.setRunStatus(runId, 'running');
    const queue = this.store.pendingItems(runId);
    let halt: Halt | undefined;
    const worker = async () => {
      for (let item = queue.shift(); item && !halt && !this.closed; item = queue.shift()) {
        halt ??= await this.sendOne(run, rule, item);
      }
    };
    await Promise.all(Array.from({ length: WIDTH }, worker));
    if (this.closed) return;
    const minPause = this.options.minPauseSeconds ?? PAUSE_S.min;
    if (halt?.kind === 'stop') return this.stopRun(runId, refusalLine(halt.answer));
    if (halt) {
      const { retryAfter, code, status } = halt.answer;
      const wait = retryAfter ? ` for about ${waitText(retryAfter)}` : '';
      const line = (pauseWords(code) ?? UNREACHED)(wait);
      if (this.store.run(runId)!.attempts + 1 >= (this.options.maxPauses ?? 5)) {
        const why = line.replace(/^Paused:/, 'Stopped:').split('.')[0];
        return this.stopRun(runId, `${why}. It paused too often; run it again later.`);
      }
      // Asked to slow down: it goes on when the marketplace said, not after an outage's wait.
      const slowDown = status === 429 && code !== 'too_many_waiting';
      const floor = slowDown ? PAUSE_S.rateLimited : minPause;
      const seconds = Math.min(Math.max(retryAfter ?? 0, floor), PAUSE_S.max);
      return this.pause(runId, line, seconds);
    }
    const left = this.store.pendingItems(runId).length;
    if (left > 0) {
      // Never called done with a write unsent: it goes again shortly.
      serverLog.warn({ runId, left }, 'A rule run ended its pass with writes unsent');
      const note = 'Paused: some changes could not be sent yet. The rule tries again shortly.';
      return this.pause(runId, note, minPause);
    }
    this.store.setRunStatus(runId, 'done', { finishedAt: this.iso() });
  }

  private stopRun(runId: number, note: string): void {
    const at = this.iso();
    for (const item of this.store.pendingItems(runId)) {
      const why = 'not sent: the run stopped';
      this.store.settleItem(runId, item.listingId, 'failed', { reason: 'stopped', why, at });
    }
    this.store.setRunStatus(runId, 'stopped', { note, finishedAt: at });
  }

  /** Sends one recorded write; answers why the run must pause or stop, if it must. */
  private async sendOne(
    run: RunRecord,
    rule: StoredRule | undefined,
    item: RunItem,
  ): Promise<Halt | undefined> {
    // A person's change made during the run wins over the rule's.
    const since = Date.parse(run.startedAt);
    if (this.options.activity?.personEditSince(item.listingId, since) !== undefined) {
      const why = 'a person changed it during the run; their change wins';
      const fields = { reason: 'edited_by_person', why, at: this.iso() };
      this.store.settleItem(run.id, item.listingId, 'skipped', fields);
      return undefined;
    }
    let answer = await this.write(item);
    // A retry of the same key while the first still runs waits its turn, a few times.
    const inFlight = () =>
      answer.code === 'idempotency_request_in_flight' || (answer.status === -1 && !this.closed);
    for (let attempt = 1; attempt < 4 && inFlight(); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
      answer = await this.write(item);
    }
    if (this.closed) return undefined;
    // Taken back while waiting for its turn: kept pending, the run waits and tries again.
    if (answer.status === -1) return { kind: 'pause', answer };
    const { status, code } = answer;
    if (ok(status)) {
      this.store.settleItem(run.id, item.listingId, 'done', { status, at: this.iso() });
      this.record(run, rule, item, answer);
      // The replica takes the answer: the next plan reads the listing as the write left it.
      this.options.replica.applyWriteAnswer(answer.body);
      if (rule?.definition.action.kind === 'sale' && run.trigger !== 'undo' && item.after.price) {
        const [before, after] = [exactCents(item.before.price), exactCents(item.after.price)];
        if (Date.parse(rule.definition.action.endsAt) <= since) {
          this.store.endSale(rule.id, item.listingId);
        } else if (before !== null && after !== null) {
          this.store.putOnSale(rule.id, item.listingId, before, after);
        }
      }
      return undefined;
    }
    if (pauseWords(code) || status === 0 || status >= 500 || status === 429) {
      return { kind: 'pause', answer };
    }
    const why = ownEntry(FAILURE_WORDS, code) ?? 'the marketplace refused the change';
    const fields = { status, reason: code ?? `status_${status}`, why, at: this.iso() };
    this.store.settleItem(run.id, item.listingId, 'failed', fields);
    this.record(run, rule, item, answer);
    // A refusal of the account or key holds for every listing: sending more would only repeat it.
    return status === 401 || status === 403 ? { kind: 'stop', answer } : undefined;
  }

  /** PUT one listing's fields under the run item's Idempotency-Key; a refusal is an answer too. */
  private async write(item: RunItem): Promise<ApiAnswer> {
    try {
      const { status, body, meta } = await this.client.transport.request({
        method: 'PUT',
        path: `/listings/${encodeURIComponent(item.listingId)}.json`,
        body: { listing: item.after },
        idempotencyKey: item.idempotencyKey ?? undefined,
        signal: this.abort.signal,
        priority: 'background',
      });
      return { status, code: null, body, requestId: meta.requestId };
    } catch (error) {
      if (!isApiError(error)) throw error;
      const { status, code, retryAfter, requestId } = error;
      const gone = code === CLIENT_ERROR_CODES.aborted;
      const reached = status === 0 ? 'upstream_unreachable' : code;
      return { status: gone ? -1 : status, code: gone ? 'gone' : reached, retryAfter, requestId };
    }
  }

  /** The change in the activity log, as made by the rule, with who created it. */
  private record(run: RunRecord, rule: StoredRule | undefined, item: RunItem, answer: ApiAnswer) {
    const before: Record<string, Scalar | undefined> = item.before;
    const changes: ActivityChanges = Object.fromEntries(
      Object.entries(item.after).map(([field, after]) => [field, { before: before[field], after }]),
    );
    const name = rule?.definition.name ?? `Rule ${run.ruleId}`;
    const { status, code } = answer;
    try {
      this.options.activity?.insert({
        at: this.iso(),
        actor: {
          name: run.trigger === 'undo' ? `Undo of rule “${name}”` : `Rule “${name}”`,
          role: 'rule',
        },
        action: item.after.status === 'active' ? 'reactivate' : 'update',
        method: 'PUT',
        path: `/2026-07/listings/${encodeURIComponent(item.listingId)}.json`,
        listingId: item.listingId,
        bulkJobId: null,
        changes,
        outcome: ok(status) ? 'ok' : status >= 500 || status === 0 ? 'failed' : 'refused',
        status,
        code,
        requestId: answer.requestId?.slice(0, 120) ?? null,
        rule: { id: run.ruleId, name, createdBy: rule?.createdBy ?? null },
      });
    } catch (error) {
      serverLog.error({ err: error }, 'The activity log could not record a rule’s change');
    }
  }
}
