import { createHash } from 'node:crypto';
import type { PlanChange, PlanDiff } from '../../shared/rule-answers';
import type { PlanItem } from './rule-plan';

/** A plan's key (what a run "as previewed" must match) and what changed between two plans. */

const writesOf = (items: readonly PlanItem[]) =>
  new Map(items.flatMap((item) => (item.kind === 'write' ? [[item.listingId, item]] : [])));
const fieldsKey = ({ before, after }: PlanItem) => JSON.stringify([before, after]);

/** The same writes, from the same values to the same values, have the same key. */
export function planKey(items: readonly PlanItem[]): string {
  const hash = createHash('sha256');
  for (const [id, write] of writesOf(items)) hash.update(`${id}\u0000${fieldsKey(write)}\n`);
  return hash.digest('base64url').slice(0, 22);
}

const SHOWN = 50;

/** What the plan now does differently from the plan previewed. */
export function planDiff(shown: readonly PlanItem[] | undefined, now: readonly PlanItem[]) {
  const diff: PlanDiff = { known: !!shown, added: 0, removed: 0, changed: 0, listings: [] };
  if (!shown) return diff;
  const fields = (w: PlanItem | undefined) => (w ? { before: w.before, after: w.after } : null);
  const note = (change: PlanChange['change'], was?: PlanItem, is?: PlanItem) => {
    diff[change]++;
    const { listingId, title } = (is ?? was)!;
    if (diff.listings.length < SHOWN) {
      diff.listings.push({ listingId, title, change, shown: fields(was), now: fields(is) });
    }
  };
  const [before, after] = [writesOf(shown), writesOf(now)];
  for (const [id, is] of after) {
    const was = before.get(id);
    if (!was) note('added', undefined, is);
    else if (fieldsKey(was) !== fieldsKey(is)) note('changed', was, is);
  }
  for (const [id, was] of before) if (!after.has(id)) note('removed', was, undefined);
  return diff;
}
