import { z } from 'zod';
import type { Product } from '../../client';

/** One catalogue row, flattened from the product shape, with its search text precomputed. */
export interface CatalogueRow {
  id: string;
  title: string;
  status: string;
  reason: string | null;
  price: number;
  priceText: string;
  minimumOffer: string | null;
  player: string;
  cert: string;
  grader: string;
  grade: string;
  gradeValue: number;
  category: string;
  year: number | null;
  set: string;
  isLot: boolean;
  cardCount: number;
  offers: boolean;
  promoted: boolean;
  createdAt: string;
  updatedAt: string;
  search: string;
}

export function toCatalogueRow(product: Product): CatalogueRow {
  const card = product.svc_card;
  const price = product.variants[0]?.price ?? '0.00';
  return {
    id: product.id,
    title: product.title,
    status: product.status,
    reason: product.svc_unavailable_reason,
    price: Number(price),
    priceText: price,
    minimumOffer: product.svc_minimum_offer,
    player: card.player ?? '',
    cert: card.cert_number,
    grader: card.grader,
    grade: card.grade,
    gradeValue: Number(card.grade) || 0,
    category: card.category,
    year: card.year,
    set: card.set,
    isLot: product.svc_is_lot,
    cardCount: product.svc_card_count,
    offers: product.svc_accepts_offers,
    promoted: product.svc_promoted,
    createdAt: product.created_at,
    updatedAt: product.updated_at,
    search:
      `${product.title} ${card.player ?? ''} ${card.cert_number} ${card.set} ${product.id}`.toLowerCase(),
  };
}

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

const compare: Record<SortKey, (a: CatalogueRow, b: CatalogueRow) => number> = {
  title: (a, b) => a.title.localeCompare(b.title),
  player: (a, b) => a.player.localeCompare(b.player),
  price: (a, b) => a.price - b.price,
  grade: (a, b) => a.gradeValue - b.gradeValue,
  status: (a, b) => a.status.localeCompare(b.status),
  created: (a, b) => a.createdAt.localeCompare(b.createdAt),
  updated: (a, b) => a.updatedAt.localeCompare(b.updatedAt),
};

/** Filters and sorts in the browser: the API filters nothing. */
export function applyCatalogueSearch(
  rows: readonly CatalogueRow[],
  search: CatalogueSearch,
): CatalogueRow[] {
  const terms = (search.q ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const out = rows.filter(
    (row) =>
      (!search.status || row.status === search.status) &&
      (!search.grader || row.grader === search.grader) &&
      (!search.grade || row.grade === search.grade) &&
      (!search.category || row.category === search.category) &&
      (!search.offers || row.offers === (search.offers === 'yes')) &&
      (!search.lot || row.isLot === (search.lot === 'yes')) &&
      terms.every((term) => row.search.includes(term)),
  );
  if (search.sort) {
    const by = compare[search.sort];
    const sign = search.dir === 'desc' ? -1 : 1;
    out.sort((a, b) => sign * by(a, b));
  }
  return out;
}

/** The distinct values of a field, for the filter menus. */
export function facetValues(rows: readonly CatalogueRow[], pick: (row: CatalogueRow) => string) {
  const values = new Set<string>();
  for (const row of rows) values.add(pick(row));
  return [...values].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}
