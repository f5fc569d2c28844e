/** A row's `updated_at` as epoch ms; undefined when it has none that can be read. */
function updatedAtOf(row: unknown): number | undefined {
  if (typeof row !== 'object' || row === null) return undefined;
  const value = (row as { updated_at?: unknown }).updated_at;
  if (typeof value !== 'string') return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : at;
}

/** Whether `candidate` is older than `shown` (earlier `updated_at`); an equal time applies. */
export function isOlder(candidate: unknown, shown: unknown): boolean {
  const was = updatedAtOf(shown);
  const now = updatedAtOf(candidate);
  return was !== undefined && now !== undefined && now < was;
}
