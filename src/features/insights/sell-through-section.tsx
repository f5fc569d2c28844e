import { useMemo } from 'react';
import type { ListingFacts as ListingRead } from '../../api/sales/sales-queries';
import { DIMENSION_LABELS, sellThrough, type Dimension } from '../../api/sales/sell-through';
import { BarChart } from './bar-chart';
import { axisPercent } from './chart-ticks';
import { DataTable } from '../../components/data-table';
import { humanize } from '../../lib/format';
import { SelectField } from '../../components/options';

const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;
const days = (value: number | undefined) => (value === undefined ? '—' : value.toFixed(1));

/** Sell-through and median days to sell, by grader, grade, category or price band. */
export function SellThroughSection({
  listings,
  soldAt,
  dimension,
  onChange,
}: {
  listings: readonly ListingRead[];
  soldAt: ReadonlyMap<string, string>;
  dimension: Dimension;
  onChange: (dimension: Dimension) => void;
}) {
  const rows = useMemo(
    () => sellThrough(listings, soldAt, dimension),
    [listings, soldAt, dimension],
  );
  const name = DIMENSION_LABELS[dimension];
  return (
    <section className="panel" aria-labelledby="sell-through-heading">
      <h2 id="sell-through-heading">Sell-through</h2>
      <form className="chart-controls" onSubmit={(e) => e.preventDefault()}>
        <SelectField
          id="sell-through-by"
          label="Break down by"
          value={dimension}
          options={Object.entries(DIMENSION_LABELS)}
          onChange={(value) => onChange(value as Dimension)}
        />
      </form>
      <p className="muted">
        Of the listings that went live (a listed date), the share sold (an order not cancelled), and
        the median days from listed to sold.
      </p>
      <div className="insights-section">
        <BarChart
          title={`Sell-through by ${name.toLowerCase()}`}
          valueName="sell-through"
          axis={{ format: axisPercent }}
          points={rows.map((row) => ({
            label: humanize(row.group),
            value: row.rate,
            display: percent(row.rate),
          }))}
        />
        <DataTable
          caption={`Sell-through by ${name.toLowerCase()}`}
          showCaption
          scrollsSideways
          windowed={false}
          rows={rows}
          getRowId={(row) => row.group}
          columns={[
            { id: 'group', header: name, rowHeader: true, cell: (row) => humanize(row.group) },
            { id: 'listed', header: 'Listed', align: 'right', cell: (row) => row.listed },
            { id: 'sold', header: 'Sold', align: 'right', cell: (row) => row.sold },
            {
              id: 'rate',
              header: 'Sell-through',
              align: 'right',
              cell: (row) => percent(row.rate),
            },
            {
              id: 'days',
              header: 'Median days to sell',
              align: 'right',
              cell: (row) => days(row.medianDaysToSell),
            },
          ]}
        />
      </div>
    </section>
  );
}
