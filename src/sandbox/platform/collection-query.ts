import type { Page } from '../store/sql';
import { parseIsoInstant } from './time';
import { ApiError, FieldErrors } from './api-error';
import { CURSOR_TTL_MS, hashFilters, type CursorCodec, type CursorPayload } from './page-cursor';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 250;
const SORTS = ['created_at asc', 'created_at desc'] as const;
const DEFAULT_SORT = SORTS[0];

/** A filter a collection accepts beside `updated_at_min`: its name, default, and how to check a value. */
export interface FilterSpec {
  name: string;
  defaultValue?: string;
  allowed: readonly string[];
}

export interface CursorContext {
  codec: CursorCodec;
  epoch: string;
  now: number;
}

export type Query = Record<string, string | string[] | undefined>;

export function single(query: Query, name: string, errors: FieldErrors): string | undefined {
  const value = query[name];
  return Array.isArray(value) ? errors.add(name, 'must be given once') : value;
}

export function parseFields(raw: string | undefined, errors: FieldErrors): string[] | undefined {
  if (raw === undefined) return undefined;
  const fields = raw
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  if (fields.length === 0) errors.add('fields', 'must name at least one field');
  return fields;
}

/** Reads the collection parameters; a `page_info` cursor must match the request, not stale. */
export function parseCollectionQuery(
  query: Query,
  resource: string,
  filterSpecs: readonly FilterSpec[],
  cursors: CursorContext,
) {
  const errors = new FieldErrors();
  const limitRaw = single(query, 'limit', errors);
  let limit = DEFAULT_LIMIT;
  if (limitRaw !== undefined) {
    const n = Number(limitRaw);
    if (!/^\d+$/.test(limitRaw.trim()) || n < 1 || n > MAX_LIMIT) {
      errors.add('limit', `must be a whole number from 1 to ${MAX_LIMIT}`);
    } else limit = n;
  }
  const fieldsRaw = single(query, 'fields', errors);
  const fields = parseFields(fieldsRaw, errors);
  const sortRaw = single(query, 'order', errors);
  if (sortRaw !== undefined && !(SORTS as readonly string[]).includes(sortRaw.trim())) {
    errors.add('order', `must be one of: ${SORTS.join(', ')}`);
  }
  const stated: Record<string, string> = {};
  const updatedRaw = single(query, 'updated_at_min', errors);
  if (updatedRaw !== undefined) {
    const ms = parseIsoInstant(updatedRaw);
    if (ms === null) errors.add('updated_at_min', 'must be an ISO 8601 date or date-time');
    else stated.updated_at_min = String(ms);
  }
  for (const spec of filterSpecs) {
    const raw = single(query, spec.name, errors);
    if (raw === undefined) continue;
    if (!spec.allowed.includes(raw))
      errors.add(spec.name, `must be one of: ${spec.allowed.join(', ')}`);
    else stated[spec.name] = raw;
  }
  const pageInfo = single(query, 'page_info', errors);
  errors.throwIfAny();

  const fromFilters = (filters: Record<string, string>, sort: string) => ({
    ascending: sort.endsWith('asc'),
    updatedAtMin: filters.updated_at_min === undefined ? undefined : Number(filters.updated_at_min),
    filters,
    sort,
    resource,
  });
  if (pageInfo === undefined) {
    const filters: Record<string, string> = { ...stated };
    for (const spec of filterSpecs) {
      if (filters[spec.name] === undefined && spec.defaultValue !== undefined) {
        filters[spec.name] = spec.defaultValue;
      }
    }
    return {
      limit,
      fields,
      position: undefined,
      ...fromFilters(filters, sortRaw?.trim() ?? DEFAULT_SORT),
    };
  }

  const cursor = cursors.codec.decode(pageInfo);
  if (cursor.resource !== resource) {
    throw new ApiError(
      400,
      'page_info_resource_mismatch',
      `page_info was issued by /${cursor.resource}.json, not /${resource}.json`,
    );
  }
  if (sortRaw !== undefined && sortRaw.trim() !== cursor.sort) {
    throw new ApiError(
      400,
      'page_info_sort_mismatch',
      `page_info was issued for order "${cursor.sort}", not "${sortRaw.trim()}"`,
    );
  }
  const changed = Object.keys(stated).filter((name) => {
    const spec = filterSpecs.find((s) => s.name === name);
    const before = cursor.filters[name] ?? spec?.defaultValue;
    return stated[name] !== before;
  });
  if (changed.length > 0 || hashFilters(cursor.filters) !== cursor.filterHash) {
    throw new ApiError(
      400,
      'page_info_filter_mismatch',
      'The filters changed during the walk; start again from the first page without page_info',
      { extra: { changed_params: changed.sort() } },
    );
  }
  if (cursor.epoch !== cursors.epoch || cursors.now - cursor.issuedAt > CURSOR_TTL_MS) {
    throw new ApiError(
      400,
      'invalid_page_info',
      'page_info has expired with its data; restart the walk from the first page',
    );
  }
  return {
    limit: limitRaw === undefined ? cursor.limit : limit,
    fields: fieldsRaw === undefined ? cursor.fields?.split(',') : fields,
    position: { seq: cursor.seq, direction: cursor.direction },
    ...fromFilters(cursor.filters, cursor.sort),
  };
}

type CollectionQuery = ReturnType<typeof parseCollectionQuery>;

/** The `Link` header for a page: `rel="previous"` and `rel="next"` cursors, or undefined at both ends. */
export function pageLinks<Row>(
  page: Page<Row>,
  seqOf: (row: Row) => number,
  query: CollectionQuery,
  cursors: CursorContext,
  pathUrl: string,
): string | undefined {
  const first = page.rows[0];
  const last = page.rows[page.rows.length - 1];
  const links: string[] = [];
  const make = (seq: number, direction: 'next' | 'previous') => {
    const payload: CursorPayload = {
      resource: query.resource,
      sort: query.sort,
      filters: query.filters,
      filterHash: hashFilters(query.filters),
      seq,
      direction,
      limit: query.limit,
      fields: query.fields?.join(','),
      epoch: cursors.epoch,
      issuedAt: cursors.now,
    };
    const params = new URLSearchParams({ limit: String(query.limit) });
    if (query.fields) params.set('fields', query.fields.join(','));
    params.set('page_info', cursors.codec.encode(payload));
    return `<${pathUrl}?${params.toString()}>; rel="${direction}"`;
  };
  if (page.hasPrevious && first !== undefined) links.push(make(seqOf(first), 'previous'));
  if (page.hasNext && last !== undefined) links.push(make(seqOf(last), 'next'));
  return links.length > 0 ? links.join(', ') : undefined;
}
