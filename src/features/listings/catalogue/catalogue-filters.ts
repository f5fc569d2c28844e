import * as z from 'zod/mini';
import { AGE_BUCKET_IDS, ageBucketOf } from '../../../api/sales/listing-age';
import { searchTextOf, type CatalogueRow } from './catalogue-row';
import { compareCodesNumerically } from '../../../api/compare-codes';

/** The catalogue's table state in the URL; unknown or malformed values fall back to defaults. */
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

/** An optional search param: a malformed value reads as absent. */
const lenient = <T extends z.ZodMiniType>(schema: T) => z.catch(z.optional(schema), undefined);
const yesNo = lenient(z.enum(['yes', 'no']));
export const CatalogueSearch = z.object({
  q: lenient(z.string()),
  status: lenient(z.string()),
  grader: lenient(z.string()),
  grade: lenient(z.string()),
  category: lenient(z.string()),
  offers: yesNo,
  lot: yesNo,
  /** Changed by a pricing rule (the server's rules say which), or never. */
  rule: yesNo,
  /** Live for 0–7, 8–30, 31–90 or over 90 days (by `listed_at`): the insights page links here. */
  age: lenient(z.enum(AGE_BUCKET_IDS)),
  sort: lenient(z.enum(SORTABLE)),
  dir: lenient(z.enum(['asc', 'desc'])),
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

/** Filters and sorts in one loop (the API filters nothing); nothing to do returns `rows` itself. */
export function applyCatalogueSearch(
  rows: readonly CatalogueRow[],
  search: CatalogueSearch,
  now = Date.now(),
): CatalogueRow[] {
  const terms = (search.q ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const { status, grader, grade, category, age } = search;
  const offers = search.offers === undefined ? undefined : search.offers === 'yes';
  const lot = search.lot === undefined ? undefined : search.lot === 'yes';
  const filtered =
    terms.length > 0 ||
    Boolean(status || grader || grade || category || age) ||
    offers !== undefined ||
    lot !== undefined;
  let out: CatalogueRow[];
  // Nothing to filter: the rows themselves (read only), copied only to be sorted.
  if (!filtered) out = search.sort ? rows.slice() : (rows as CatalogueRow[]);
  else {
    out = [];
    next: for (const row of rows) {
      if (status && row.status !== status && row.state !== status) continue;
      if (grader && row.grader !== grader) continue;
      if (grade && row.grade !== grade) continue;
      if (category && row.category !== category) continue;
      if (offers !== undefined && row.offers !== offers) continue;
      if (lot !== undefined && row.isLot !== lot) continue;
      if (age && ageBucketOf(row.listedAt, now) !== age) continue;
      for (const term of terms) if (!searchTextOf(row).includes(term)) continue next;
      out.push(row);
    }
  }
  if (search.sort) {
    const by = compare[search.sort];
    const sign = search.dir === 'desc' ? -1 : 1;
    out.sort((a, b) => by(a, b, sign));
  }
  return out;
}

/** The filter menus' values in one pass: statuses and their words, graders, grades, categories. */
export function catalogueFacets(rows: readonly CatalogueRow[]) {
  const status = new Set<string>();
  const state = new Set<string>();
  const grader = new Set<string>();
  const grade = new Set<string>();
  const category = new Set<string>();
  for (const row of rows) {
    if (row.status !== undefined) status.add(row.status);
    if (row.state !== undefined) state.add(row.state);
    if (row.grader !== undefined) grader.add(row.grader);
    if (row.grade !== undefined) grade.add(row.grade);
    if (row.category !== undefined) category.add(row.category);
  }
  return {
    status: [
      ...new Set([
        ...[...status].sort(compareCodesNumerically),
        ...[...state].sort(compareCodesNumerically),
      ]),
    ],
    grader: [...grader].sort(compareCodesNumerically),
    grade: [...grade].sort(compareCodesNumerically),
    category: [...category].sort(compareCodesNumerically),
  };
}

interface RecentSearch {
  search: CatalogueSearch;
  /** The search text, lower-cased. */
  text: string;
  out: CatalogueRow[];
}

/** How many searches over one rows array `searchNarrowing` remembers. */
const RECENT_SEARCHES = 12;

/** The latest searches over each rows array, oldest first, for `searchNarrowing`. */
const recentSearches = new WeakMap<readonly CatalogueRow[], RecentSearch[]>();

const FILTER_KEYS = Object.keys(CatalogueSearch.shape) as (keyof CatalogueSearch)[];
const sameBesidesText = (a: CatalogueSearch, b: CatalogueSearch) =>
  FILTER_KEYS.every((key) => key === 'q' || a[key] === b[key]);

/** `applyCatalogueSearch` memoised: a repeat is free; a narrower one scans its prefix's result. */
export function searchNarrowing(
  rows: readonly CatalogueRow[],
  search: CatalogueSearch,
): CatalogueRow[] {
  const text = (search.q ?? '').toLowerCase();
  const recent = recentSearches.get(rows) ?? [];
  let source: readonly CatalogueRow[] = rows;
  let longest = -1;
  if (!search.age) {
    for (const entry of recent) {
      if (!sameBesidesText(entry.search, search) || !text.startsWith(entry.text)) continue;
      if (entry.text === text) return entry.out;
      if (entry.text.length > longest) {
        longest = entry.text.length;
        source = entry.out;
      }
    }
  }
  const out = applyCatalogueSearch(source, search);
  if (!search.age) {
    recent.push({ search, text, out });
    if (recent.length > RECENT_SEARCHES) recent.shift();
    recentSearches.set(rows, recent);
  }
  return out;
}

/** Keeps the rows a pricing rule changed (`yes`) or did not (`no`); all rows when unset. */
export function byRule(
  rows: CatalogueRow[],
  rule: 'yes' | 'no' | undefined,
  touched: ReadonlySet<string> | undefined,
): CatalogueRow[] {
  if (rule === undefined) return rows;
  // Until the rules answer, the filter shows nothing rather than every row.
  if (touched === undefined) return [];
  return rows.filter((row) => touched.has(row.id) === (rule === 'yes'));
}
