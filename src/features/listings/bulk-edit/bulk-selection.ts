import { applyCatalogueSearch, readCatalogueSearch } from '../catalogue/catalogue-filters';
import type { CatalogueRow } from '../catalogue/catalogue-row';
import type { Excluded } from './logic/diff';
import { exclusionReason } from './logic/rows';
import { countOf } from '../../../lib/format';

/** The search param naming listings one by one (comma-separated ids). */
export const IDS_PARAM = 'ids';

export interface BulkSelection {
  /** The listings the grid edits, in the catalogue's order. */
  rows: CatalogueRow[];
  /** Selected listings that cannot be edited, with the reason. */
  excluded: Excluded[];
  /** Ids in the URL that are not in the catalogue. */
  missing: string[];
  /** How the selection was made, in words. */
  scope: string;
}

/** The selection: `?ids=…` or the search for "all N matching"; sold listings left out, said why. */
export function resolveSelection(
  products: readonly CatalogueRow[],
  params: URLSearchParams,
): BulkSelection {
  const ids = params.get(IDS_PARAM);
  let chosen: CatalogueRow[];
  let missing: string[] = [];
  let scope: string;
  if (ids !== null) {
    const wanted = ids
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean);
    const byId = new Map(products.map((p) => [p.id, p]));
    chosen = [];
    for (const id of new Set(wanted)) {
      const product = byId.get(id);
      if (product) chosen.push(product);
      else missing.push(id);
    }
    scope = `${countOf(chosen.length, 'selected listing')}`;
  } else {
    const search = readCatalogueSearch(params);
    const matching = new Set(applyCatalogueSearch(products, search).map((row) => row.id));
    chosen = products.filter((p) => matching.has(p.id));
    const filters = [...params.entries()]
      .filter(([key, value]) => key !== 'sort' && key !== 'dir' && value !== '')
      .map(([key, value]) => `${key}: ${value}`);
    scope = `all ${countOf(chosen.length, 'listing')} matching ${filters.length ? filters.join(', ') : 'no filter'}`;
  }
  const rows: CatalogueRow[] = [];
  const excluded: Excluded[] = [];
  for (const row of chosen) {
    const reason = exclusionReason(row);
    if (reason) excluded.push({ id: row.id, title: row.title, reason });
    else rows.push(row);
  }
  if (missing.length > 200) missing = missing.slice(0, 200);
  return { rows, excluded, missing, scope };
}
