import { formatMoney, countOf } from '../../../lib/format';
import { estimateMargin } from '../../../api/sales/margin';
import { formatCents } from '../../../shared/money';
import { useMarginBasis } from '../../../api/sales/use-margin-basis';
import type { CatalogueRow } from '../catalogue/catalogue-row';
import type { Plan } from './logic/diff';
import { TableHead } from '../../../components/table-head';

/** A planned price that would sell below the card's cost, and the price that breaks even. */
export interface BelowCost {
  id: string;
  title: string;
  price: string;
  marginCents: number;
  breakEven: string;
}

/**
 * Flags prices that would sell below cost (net at the learned fee rate less inventory `cost`), to
 * leave out or floor at break-even.
 */
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
      <table className="simple-table">
        <caption className="visually-hidden">Prices below cost</caption>
        <TableHead columns={['Listing']} numeric={['New price', 'Margin', 'Break-even']} />
        <tbody>
          {flagged.slice(0, 50).map((row) => (
            <tr key={row.id}>
              <td>{row.title}</td>
              <td className="num">{formatMoney(row.price)}</td>
              <td className="num below-cost">{formatMoney(formatCents(row.marginCents))}</td>
              <td className="num">{formatMoney(row.breakEven)}</td>
            </tr>
          ))}
        </tbody>
      </table>
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
