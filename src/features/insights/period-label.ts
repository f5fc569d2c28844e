import type { Granularity } from '../../lib/sales/sales-series';

const day = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const month = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

/** A period's name for charts and tables: "Nov 3", "Week of Nov 3", "Nov 2026" (UTC). */
export function periodLabel(startIso: string, granularity: Granularity): string {
  const at = Date.parse(startIso);
  if (granularity === 'month') return month.format(at);
  return granularity === 'week' ? `Week of ${day.format(at)}` : day.format(at);
}
