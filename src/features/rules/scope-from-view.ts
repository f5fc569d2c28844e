import { AGE_BUCKETS } from '../../api/sales/listing-age';
import type { RuleDefinition } from '../../api/rules/rules-api';

/** Catalogue filters a rule's scope leaves out (it reads status, grader, grade, category, age). */
const IGNORED_WORDS: Record<string, string> = {
  q: 'search words',
  offers: 'offers',
  lot: 'lots',
};

/** A rule's scope from a saved view's search, and the filters it leaves out. */
export function scopeFromView(
  name: string,
  search: string,
): { scope: RuleDefinition['scope']; leftOut: string[] } {
  const params = new URLSearchParams(search);
  const scope: RuleDefinition['scope'] = { viewName: name };
  const status = params.get('status');
  if (status === 'active' || status === 'draft' || status === 'archived') scope.status = status;
  for (const key of ['grader', 'grade', 'category'] as const) {
    const value = params.get(key)?.trim();
    if (value) scope[key] = value;
  }
  const bucket = AGE_BUCKETS.find((b) => b.id === params.get('age'));
  if (bucket) {
    scope.minAgeDays = bucket.min;
    if (bucket.max !== Infinity) scope.maxAgeDays = bucket.max;
  }
  const leftOut = [...params.keys()]
    .filter((key) => Object.hasOwn(IGNORED_WORDS, key))
    .map((key) => IGNORED_WORDS[key]!);
  return { scope, leftOut };
}
