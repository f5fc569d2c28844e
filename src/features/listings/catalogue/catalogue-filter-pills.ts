import type { ActiveFilter } from '../../../components/active-filters';
import { AGE_BUCKETS } from '../../../api/sales/listing-age';
import type { CatalogueSearch } from './catalogue-filters';
import { humanize } from '../../../lib/format';

/** The filters by a value the listings carry, in the filter row's order, with their labels. */
export const FACETS = [
  { key: 'status', label: 'Status' },
  { key: 'grader', label: 'Grader' },
  { key: 'grade', label: 'Grade' },
  { key: 'category', label: 'Category' },
] as const;

/** The yes-or-no filters, each with its own words for the two choices. */
export const YES_NO = {
  offers: { label: 'Offers', yes: 'Accepts offers', no: 'No offers' },
  lot: { label: 'Lots', yes: 'Lots only', no: 'Single cards' },
  rule: { label: 'Pricing rules', yes: 'Changed by a rule', no: 'Not changed by a rule' },
};

/** The catalogue's filters in force, in the filter row's order, in the words of its fields. */
export function catalogueFilterPills(search: CatalogueSearch, text: string): ActiveFilter[] {
  const pills: ActiveFilter[] = [];
  if (text.trim()) pills.push({ id: 'q', label: 'Search', value: text.trim() });
  for (const { key, label } of FACETS) {
    const value = search[key];
    if (value) pills.push({ id: key, label, value: humanize(value) });
  }
  if (search.age) {
    const bucket = AGE_BUCKETS.find((b) => b.id === search.age);
    pills.push({ id: 'age', label: 'Listed for', value: bucket?.label ?? search.age });
  }
  for (const key of ['offers', 'lot', 'rule'] as const) {
    const value = search[key];
    if (value) pills.push({ id: key, label: YES_NO[key].label, value: YES_NO[key][value] });
  }
  return pills;
}
