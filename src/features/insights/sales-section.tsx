import { useMemo } from 'react';
import type { OrderFacts as Order } from '../../api/sales/sales-queries';
import { Figure, Money } from '../../components/figure';
import { formatCents, formatDollars } from '../../shared/money';
import {
  salesSeries,
  unplacedOrders,
  type Granularity,
  type SalesPoint,
} from '../../api/sales/sales-series';
import { BarChart } from './bar-chart';
import { axisCount, axisMoney } from './chart-ticks';
import { periodLabel } from './period-label';
import { DataTable, type Column } from '../../components/data-table';
import { SelectField } from '../../components/options';

export const METRICS = {
  sales: { label: 'Sales', pick: (p: SalesPoint) => p.salesCents, money: true },
  units: { label: 'Units', pick: (p: SalesPoint) => p.units, money: false },
  fees: { label: 'Fees', pick: (p: SalesPoint) => p.feesCents, money: true },
  net: { label: 'Net payouts', pick: (p: SalesPoint) => p.netCents, money: true },
} as const;
export type Metric = keyof typeof METRICS;

const PERIODS = [
  ['day', 'Day (last 30)'],
  ['week', 'Week (last 12)'],
  ['month', 'Month (last 12)'],
] as const;

const money = (cents: number) => <Money amount={formatCents(cents)} />;

const SALES_COLUMNS: Column<SalesPoint>[] = [
  { id: 'sales', header: 'Sales', align: 'right', cell: (point) => money(point.salesCents) },
  { id: 'units', header: 'Units', align: 'right', cell: (point) => point.units },
  { id: 'fees', header: 'Fees', align: 'right', cell: (point) => money(point.feesCents) },
  { id: 'net', header: 'Net payouts', align: 'right', cell: (point) => money(point.netCents) },
];

/** Sales, units, fees and net payouts per day, week or month: a chart and its table. */
export function SalesSection({
  orders,
  granularity,
  metric,
  now,
  onChange,
}: {
  orders: readonly Order[];
  granularity: Granularity;
  metric: Metric;
  now: number;
  onChange: (next: { by?: Granularity; metric?: Metric }) => void;
}) {
  const series = useMemo(() => salesSeries(orders, granularity, now), [orders, granularity, now]);
  // Orders no period could hold, or with an amount not shown: said, never counted as zero.
  const unplaced = useMemo(() => unplacedOrders(orders), [orders]);
  const incomplete = series.reduce((n, point) => n + point.incomplete, 0);
  const chosen = METRICS[metric];
  const points = series.map((point) => {
    const value = chosen.pick(point);
    return {
      label: periodLabel(point.start, granularity),
      value,
      display: chosen.money ? formatDollars(value) : String(value),
    };
  });
  return (
    <section className="panel" aria-labelledby="sales-heading">
      <h2 id="sales-heading">Sales over time</h2>
      <form className="chart-controls" onSubmit={(e) => e.preventDefault()}>
        <SelectField
          id="sales-by"
          label="Period"
          value={granularity}
          options={PERIODS}
          onChange={(by) => onChange({ by: by as Granularity })}
        />
        <SelectField
          id="sales-metric"
          label="Chart"
          value={metric}
          options={Object.entries(METRICS).map(([id, m]) => [id, m.label])}
          onChange={(metric) => onChange({ metric: metric as Metric })}
        />
      </form>
      <p className="muted">
        By sale date (UTC); cancelled orders left out. Net payouts: the paid amount, or sale − fee −
        refunds while pending.
      </p>
      {(unplaced > 0 || incomplete > 0) && (
        <p className="muted" role="note">
          {unplaced > 0 &&
            `${unplaced} ${unplaced === 1 ? 'order' : 'orders'} left out: the sale date or cancellation not shown by the API. `}
          {incomplete > 0 &&
            `${incomplete} ${incomplete === 1 ? 'order' : 'orders'} counted without an amount not shown by the API.`}
        </p>
      )}
      <div className="insights-section">
        <BarChart
          title={`${chosen.label} by ${granularity}`}
          points={points}
          valueName={chosen.label}
          axis={chosen.money ? { format: axisMoney } : { format: axisCount, whole: true }}
        />
        <DataTable
          caption={`Sales by ${granularity}`}
          showCaption
          scrollsSideways
          windowed={false}
          rows={series}
          getRowId={(point) => point.start}
          columns={[
            {
              id: 'period',
              header: 'Period',
              rowHeader: true,
              cell: (point) => <Figure kind="date">{periodLabel(point.start, granularity)}</Figure>,
            },
            ...SALES_COLUMNS,
          ]}
        />
      </div>
    </section>
  );
}
