import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { useSearchParams } from 'react-router';
import { readKept, writeKept } from '../api/local-store';
import { Listeners } from '../client/listeners';

/** A table's chosen columns in this browser (a device's preference), and the URL's helpers. */

/** The search param holding the visible columns (comma-separated ids). */
export const COLUMNS_PARAM = 'cols';

const COLUMNS_KEY = (table: string) => `slabdesk.columns.v1.${table}`;
const listeners = new Listeners();
let version = 0;

/** The search params of a view: everything but the one-off selection of ids. */
export function viewSearch(params: URLSearchParams): string {
  const next = new URLSearchParams(params);
  next.delete('ids');
  next.sort();
  return next.toString();
}

/** Columns to show: the URL's `cols`, else the last choice, else all; the first always. */
export function useVisibleColumns<C extends { id: string }>(
  table: string,
  columns: readonly C[],
  params: URLSearchParams,
): { visible: C[]; chosen: ReadonlySet<string>; remember(ids: readonly string[]): void } {
  useSyncExternalStore(
    listeners.subscribe,
    () => version,
    () => version,
  );
  const fromUrl = params.get(COLUMNS_PARAM);
  const remembered = readKept<string[]>(COLUMNS_KEY(table));
  const ids = fromUrl !== null ? fromUrl.split(',') : remembered;
  const known = new Set(columns.map((c) => c.id));
  const wanted = ids ? new Set(ids.filter((id) => known.has(id))) : known;
  if (wanted.size === 0 && columns[0]) wanted.add(columns[0].id);
  const remember = useCallback(
    (chosen: readonly string[]) => {
      writeKept(COLUMNS_KEY(table), chosen); // refused: the view still works as a URL for this visit
      version++;
      listeners.tell();
    },
    [table],
  );
  // The same array while the columns and the choice are the same (a memoised table skips).
  const wantedKey = [...wanted].join(',');
  const visible = useMemo(() => {
    const ids = new Set(wantedKey.split(','));
    return columns.filter((c) => ids.has(c.id));
  }, [columns, wantedKey]);
  return { visible, chosen: wanted, remember };
}

/** The patch that turns the current search params into a view's (every other key cleared). */
export function viewPatch(current: URLSearchParams, search: string): SearchPatch {
  const next = new URLSearchParams(search);
  const patch: SearchPatch = {};
  for (const key of new Set([...current.keys(), ...next.keys()])) {
    if (key === 'ids') continue;
    patch[key] = next.get(key) ?? undefined;
  }
  return patch;
}

/** A change of a page's filters: each key set, or removed when its value is empty. */
export type SearchPatch = Record<string, string | undefined>;

/** For `setSearchParams`: the params with `patch` applied. */
const patched = (patch: SearchPatch) => (current: URLSearchParams) => {
  const next = new URLSearchParams(current);
  for (const [key, value] of Object.entries(patch)) {
    if (value) next.set(key, value);
    else next.delete(key);
  }
  return next;
};

/** A page's filters in its address; a change replaces the history entry, drawn at once. */
export function useFilterParams(): [URLSearchParams, (patch: SearchPatch) => void] {
  const [params, setParams] = useSearchParams();
  const update = useCallback(
    (patch: SearchPatch) => setParams(patched(patch), { replace: true, flushSync: true }),
    [setParams],
  );
  return [params, update];
}

/** A sortable header's click: sorts by it, or turns its direction when it sorts already. */
export const sortClick =
  (
    sortable: readonly string[],
    sort: string | undefined,
    dir: string | undefined,
    update: (patch: SearchPatch) => void,
  ) =>
  (id: string) => {
    if (sortable.includes(id))
      update({ sort: id, dir: sort === id && dir !== 'desc' ? 'desc' : 'asc' });
  };
