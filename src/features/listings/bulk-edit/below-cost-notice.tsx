import { formatMoney, countOf } from '../../../lib/format';
import { estimateMargin } from '../../../api/sales/margin';
import { formatCents } from '../../../shared/money';
import { useMarginBasis } from '../../../api/sales/use-margin-basis';
import type { CatalogueRow } from '../catalogue/catalogue-row';
import type { Plan } from './logic/diff';
import { DataTable, type Column } from '../../../components/data-table';

/** A planned price that would sell below the card's cost, and the price that breaks even. */
export interface BelowCost {
  id: string;
  title: string;
  price: string;
  marginCents: number;
  breakEven: string;
}

const BELOW_COST_COLUMNS: Column<BelowCost>[] = [
  { id: 'title', header: 'Listing', cell: (row) => row.title },
  { id: 'price', header: 'New price', align: 'right', cell: (row) => formatMoney(row.price) },
  {
    id: 'margin',
    header: 'Margin',
    align: 'right',
    className: 'below-cost',
    cell: (row) => formatMoney(formatCents(row.marginCents)),
  },
  { id: 'even', header: 'Break-even', align: 'right', cell: (row) => formatMoney(row.breakEven) },
];

/** Prices that would sell below cost (net at the learned fee rate less `cost`): leave out or floor. */
export function BelowCostNotice({
  plan,
  prices,
  originals,
  catalogue,
  onSetPrices,
}: {
  plan: Plan;
  /** The price each row would be set to (the form's values), by listing id. */
  prices: ReadonlyMap<string, string>;
  /** The price each row has now, by listing id. */
  originals: ReadonlyMap<string, string | undefined>;
  catalogue: ReadonlyMap<string, Pick<CatalogueRow, 'itemId' | 'promoted'>>;
  onSetPrices(prices: ReadonlyMap<string, string>, label: string): void;
}) {
  const basis = useMarginBasis();
  if (!basis.rate || !basis.costs) return null;
  const flagged: BelowCost[] = [];
  for (const item of plan.items) {
    if (!item.changes.some((change) => change.field === 'price')) continue;
    const price = prices.get(item.id);
    const facts = catalogue.get(item.id);
    const cost = facts?.itemId ? basis.costs.get(facts.itemId)?.cost : undefined;
    // A card whose cost is not set has no break-even: it is never flagged against a $0.00.
    if (price === undefined || cost == null) continue;
    const estimate = estimateMargin(price, basis.rate, cost, facts?.promoted);
    if (estimate.marginCents! < 0) {
      flagged.push({
        id: item.id,
        title: item.title,
        price,
        marginCents: estimate.marginCents!,
        breakEven: formatCents(estimate.breakEvenCents!),
      });
    }
  }
  if (flagged.length === 0) return null;
  return (
    <section className="banner banner-warn" aria-labelledby="below-cost-heading">
      <h3 id="below-cost-heading">{countOf(flagged.length, 'listing')} would sell below cost</h3>
      <DataTable
        caption="Prices below cost"
        windowed={false}
        rows={flagged.slice(0, 50)}
        getRowId={(row) => row.id}
        columns={BELOW_COST_COLUMNS}
      />
      <div className="button-row">
        <button
          type="button"
          onClick={() =>
            onSetPrices(
              new Map(flagged.map((row) => [row.id, originals.get(row.id) ?? row.price])),
              'Leave below-cost prices out',
            )
          }
        >
          Leave these {flagged.length} price changes out
        </button>
        <button
          type="button"
          onClick={() =>
            onSetPrices(
              new Map(flagged.map((row) => [row.id, row.breakEven])),
              'Floor prices at break-even',
            )
          }
        >
          Floor them at break-even
        </button>
      </div>
    </section>
  );
}
