import { z } from 'zod';
import { AGE_BUCKET_IDS, ageBucketOf } from '../../lib/sales/listing-age';
import type { CatalogueRow } from './catalogue-row';

/**
 * The catalogue's table state, kept in the URL's search params (bookmarkable, shareable).
 * Unknown or malformed values fall back to their defaults instead of failing the page.
 */
export const SORTABLE = [
  'title',
  'player',
  'price',
  'grade',
  'status',
  'created',
  'listed',
  'updated',
] as const;
export type SortKey = (typeof SORTABLE)[number];

const yesNo = z.enum(['yes', 'no']).optional().catch(undefined);
export const CatalogueSearch = z.object({
  q: z.string().optional().catch(undefined),
  status: z.string().optional().catch(undefined),
  grader: z.string().optional().catch(undefined),
  grade: z.string().optional().catch(undefined),
  category: z.string().optional().catch(undefined),
  offers: yesNo,
  lot: yesNo,
  /** Live for 0–7, 8–30, 31–90 or over 90 days (by `listed_at`): the insights page links here. */
  age: z.enum(AGE_BUCKET_IDS).optional().catch(undefined),
  sort: z.enum(SORTABLE).optional().catch(undefined),
  dir: z.enum(['asc', 'desc']).optional().catch(undefined),
});
export type CatalogueSearch = z.infer<typeof CatalogueSearch>;

export function readCatalogueSearch(params: URLSearchParams): CatalogueSearch {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(CatalogueSearch.shape)) {
    const value = params.get(key);
    if (value !== null && value !== '') raw[key] = value;
  }
  return CatalogueSearch.parse(raw);
}

/** Compares two possibly-unknown values; an unknown value sorts after every known one. */
function known<T>(by: (a: T, b: T) => number) {
  return (a: T | null | undefined, b: T | null | undefined, sign: number) => {
    if (a === undefined || a === null) return b === undefined || b === null ? 0 : 1;
    if (b === undefined || b === null) return -1;
    return sign * by(a, b);
  };
}
const text = known<string>((a, b) => a.localeCompare(b));
const number = known<number>((a, b) => a - b);

const compare: Record<SortKey, (a: CatalogueRow, b: CatalogueRow, sign: number) => number> = {
  title: (a, b, s) => text(a.title, b.title, s),
  player: (a, b, s) => text(a.player, b.player, s),
  price: (a, b, s) => number(a.price, b.price, s),
  grade: (a, b, s) => number(a.gradeValue, b.gradeValue, s),
  status: (a, b, s) => text(a.status, b.status, s),
  created: (a, b, s) => text(a.createdAt, b.createdAt, s),
  listed: (a, b, s) => text(a.listedAt, b.listedAt, s),
  updated: (a, b, s) => text(a.updatedAt, b.updatedAt, s),
};

/** Filters and sorts in the browser: the API filters nothing. */
export function applyCatalogueSearch(
  rows: readonly CatalogueRow[],
  search: CatalogueSearch,
  now = Date.now(),
): CatalogueRow[] {
  const terms = (search.q ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const out = rows.filter(
    (row) =>
      (!search.status || row.status === search.status || row.state === search.status) &&
      (!search.grader || row.grader === search.grader) &&
      (!search.grade || row.grade === search.grade) &&
      (!search.category || row.category === search.category) &&
      (!search.offers || row.offers === (search.offers === 'yes')) &&
      (!search.lot || row.isLot === (search.lot === 'yes')) &&
      (!search.age || ageBucketOf(row.listedAt, now) === search.age) &&
      terms.every((term) => row.search.includes(term)),
  );
  if (search.sort) {
    const by = compare[search.sort];
    const sign = search.dir === 'desc' ? -1 : 1;
    out.sort((a, b) => by(a, b, sign));
  }
  return out;
}

/** The distinct values of a field, for the filter menus. */
export function facetValues(
  rows: readonly CatalogueRow[],
  pick: (row: CatalogueRow) => string | undefined,
) {
  const values = new Set<string>();
  for (const row of rows) {
    const value = pick(row);
    if (value !== undefined) values.add(value);
  }
  return [...values].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}
