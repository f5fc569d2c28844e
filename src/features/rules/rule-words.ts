import { ownEntry } from '../../shared/own-entry';
import { AGE_BUCKETS } from '../../api/sales/listing-age';
import type { RuleDefinition, RuleRun, WriteFields } from '../../api/rules/rules-api';
import { formatMoney, humanize } from '../../lib/format';

/** Why a listing was left alone, in a seller's words (the server's reasons). */
const REASON_WORDS: Record<string, string> = {
  sold: 'Sold',
  inactive: 'Not on sale',
  lot: 'A lot',
  no_cost: 'No cost known',
  at_floor: 'At its floor',
  floor_above_price: 'Floor above the price',
  edited_by_person: 'Edited by a person',
  too_young: 'Not listed long enough',
  not_due: 'Next step not due',
  unchanged: 'Already as wanted',
  not_relistable: 'Cannot be relisted',
  sale_not_started: 'Sale not started',
  changed_since: 'Changed since',
  cap_reached: 'Over the run’s cap',
  stopped: 'Not sent: the run stopped',
  listing_write_conflict: 'Sold or held meanwhile',
  listing_write_forbidden: 'Refused by the marketplace',
};

export const reasonWords = (reason: string | null) =>
  reason ? (ownEntry(REASON_WORDS, reason) ?? 'Refused by the marketplace') : '';

/** One line saying what a rule does. */
export function actionSummary(definition: RuleDefinition): string {
  const action = definition.action;
  switch (action.kind) {
    case 'markdown': {
      const step =
        action.step.kind === 'percent'
          ? `${action.step.percent}%`
          : formatMoney(action.step.amount);
      return `After ${action.afterDays} days listed, lower by ${step} every ${action.everyDays} days`;
    }
    case 'offer_floor':
      return `Minimum offer at ${action.percent}% of the price${
        action.turnOnAfterDays === null ? '' : `; offers on after ${action.turnOnAfterDays} days`
      }`;
    case 'sale':
      return `Sale: ${action.percent}% off from ${new Date(action.startsAt).toLocaleString()} to ${new Date(action.endsAt).toLocaleString()}`;
    case 'relist':
      return `Relist expired listings for ${action.durationHours / 24} days`;
  }
}

export function floorSummary(definition: RuleDefinition): string {
  const { floor } = definition;
  const margin =
    floor.margin.kind === 'percent' ? `${floor.margin.percent}%` : formatMoney(floor.margin.amount);
  return `Never below cost + ${floor.platformFeePercent}% fee + ${margin} margin, nor ${formatMoney(floor.fixed)}`;
}

export function scopeSummary(definition: RuleDefinition): string {
  const scope = definition.scope;
  const parts: string[] = [];
  if (scope.viewName) parts.push(`View “${scope.viewName}”`);
  if (scope.status) parts.push(scope.status === 'active' ? 'on sale' : humanize(scope.status));
  if (scope.grader) parts.push(scope.grader);
  if (scope.grade) parts.push(`grade ${scope.grade}`);
  if (scope.category) parts.push(humanize(scope.category));
  if (scope.minAgeDays !== undefined || scope.maxAgeDays !== undefined) {
    const bucket = AGE_BUCKETS.find(
      (b) =>
        b.min === scope.minAgeDays && (b.max === Infinity ? undefined : b.max) === scope.maxAgeDays,
    );
    parts.push(bucket ? `listed ${bucket.label.toLowerCase()}` : 'by age');
  }
  if (scope.priceMin) parts.push(`from ${formatMoney(scope.priceMin)}`);
  if (scope.priceMax) parts.push(`up to ${formatMoney(scope.priceMax)}`);
  return parts.length ? parts.join(', ') : 'All listings';
}

/** A run in words ("Sending, 12 of 92"); not "Undone" while its undo (in `runs`) is still sent. */
export function runStatusWords(run: RuleRun, runs: readonly RuleRun[] = []): string {
  const { changed, failed, pending } = run.counts;
  const sent = `${changed + failed} of ${changed + failed + pending}`;
  const undoing = run.trigger === 'undo';
  if (run.status === 'running') return undoing ? `Undoing, ${pending} left` : `Sending, ${sent}`;
  if (run.status === 'paused') return `Paused, ${pending} left to send`;
  if (run.status === 'stopped') return `Stopped after ${sent}`;
  if (undoing) return 'Put back';
  const undo = runs.find((other) => other.id === run.undoneBy);
  if (run.undoneBy === null) return 'Done';
  if (!undo || undo.finishedAt) return 'Undone';
  return `Undoing, ${undo.counts.pending} left`;
}

export const triggerWords = (run: RuleRun) =>
  run.trigger === 'undo' ? 'Undo' : run.trigger === 'schedule' ? 'On schedule' : 'Run now';

/** The fields a change sets, as a seller reads them ("$179.99", "offers on"). */
export function fieldsText(fields: WriteFields): string {
  const parts: string[] = [];
  if (fields.price !== undefined) parts.push(formatMoney(fields.price));
  if (fields.minimum_offer !== undefined) {
    parts.push(
      fields.minimum_offer === null
        ? 'no minimum offer'
        : `minimum offer ${formatMoney(fields.minimum_offer)}`,
    );
  }
  if (fields.accepts_offers !== undefined)
    parts.push(fields.accepts_offers ? 'offers on' : 'offers off');
  if (fields.status !== undefined)
    parts.push(fields.status === 'active' ? 'on sale' : fields.status);
  if (fields.duration_hours !== undefined) parts.push(`for ${fields.duration_hours / 24} days`);
  return parts.join(', ') || '—';
}
