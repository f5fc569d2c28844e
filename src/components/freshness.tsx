import { formatDateTime, unitsFromNow } from '../lib/format';
import { useNow } from '../lib/use-now';

/** "Updated just now", "Updated 2 min. ago", "Updated 3 hr. ago": how old the shown data is. */
export function freshnessText(checkedAt: number, now: number): string {
  const ms = Math.max(0, now - checkedAt);
  if (ms < 45_000) return 'Updated just now';
  if (ms < 3_600_000) return `Updated ${unitsFromNow(-Math.round(ms / 60_000), 'minute', true)}`;
  if (ms < 86_400_000) return `Updated ${unitsFromNow(-Math.round(ms / 3_600_000), 'hour', true)}`;
  return `Updated ${unitsFromNow(-Math.round(ms / 86_400_000), 'day', true)}`;
}

/** When the shown data was last brought up to date, and whether it is being now. */
export function Freshness({
  checkedAt,
  refreshing,
  kept,
}: {
  checkedAt: number | undefined;
  refreshing: boolean;
  /** Shown from this browser's kept copy. */
  kept?: boolean;
}) {
  const now = useNow(15_000);
  if (checkedAt === undefined) return null;
  return (
    <span
      className="freshness"
      title={`Last brought up to date ${formatDateTime(new Date(checkedAt).toISOString())}`}
    >
      {freshnessText(checkedAt, now)}
      {kept && refreshing && ' · checking for changes…'}
    </span>
  );
}
