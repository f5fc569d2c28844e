import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { Kept } from './kept-sync';

/** A row's `updated_at` as epoch ms; undefined when it has none that can be read. */
function updatedAtOf(row: unknown): number | undefined {
  const value = (row as { updated_at?: unknown } | null)?.updated_at;
  const at = typeof value === 'string' ? Date.parse(value) : NaN;
  return Number.isNaN(at) ? undefined : at;
}

/** Whether `candidate` is older than `shown` (earlier `updated_at`); an equal time applies. */
export function isOlder(candidate: unknown, shown: unknown): boolean {
  const [was, now] = [updatedAtOf(shown), updatedAtOf(candidate)];
  return was !== undefined && now !== undefined && now < was;
}

/** Patches one kept row, newest first; `absent` when the copy or the row is not held. */
export function patchKeptRow<T extends { id: string }>(
  queryClient: QueryClient,
  queryKey: QueryKey,
  id: string,
  change: (row: T) => T,
): 'absent' | 'older' | 'patched' {
  const kept = queryClient.getQueryData<Kept<T>>(queryKey);
  const at = kept?.rows.findIndex((row) => row.id === id) ?? -1;
  if (!kept || at < 0) return 'absent';
  const next = change(kept.rows[at]!);
  if (isOlder(next, kept.rows[at])) return 'older';
  const rows = kept.rows.slice();
  rows[at] = next;
  queryClient.setQueryData<Kept<T>>(queryKey, { ...kept, rows });
  return 'patched';
}
