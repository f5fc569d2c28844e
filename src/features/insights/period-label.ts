import { formatUtcDay, formatUtcMonth } from '../../lib/format';
import type { Granularity } from '../../api/sales/sales-series';

/** A period's name for charts and tables: "Nov 3", "Week of Nov 3", "Nov 2026" (UTC). */
export function periodLabel(startIso: string, granularity: Granularity): string {
  const at = Date.parse(startIso);
  if (granularity === 'month') return formatUtcMonth(at);
  return granularity === 'week' ? `Week of ${formatUtcDay(at)}` : formatUtcDay(at);
}
