import { useState } from 'react';
import { formatMoney, countOf } from '../../../lib/format';
import { estimateMargin } from '../../../api/sales/margin';
import { formatCents, formatDollars } from '../../../shared/money';
import { useMarginBasis } from '../../../api/sales/use-margin-basis';
import type { CatalogueRow } from '../catalogue/catalogue-row';
import type { Plan } from './logic/diff';
import { DataTable, type Column } from '../../../components/data-table';
import { CheckboxField } from '../../../components/form-field';

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
    cell: (row) => formatDollars(row.marginCents),
  },
  { id: 'even', header: 'Break-even', align: 'right', cell: (row) => formatMoney(row.breakEven) },
];

/** The plan's prices below cost, and whether Apply waits until they are dealt with. */
export function useBelowCost(
  plan: Plan | null,
  /** The price each row would be set to (the form's values), by listing id. */
  prices: ReadonlyMap<string, string>,
  catalogue: ReadonlyMap<string, Pick<CatalogueRow, 'itemId' | 'promoted'>>,
) {
  const basis = useMarginBasis(plan !== null);
  const [acceptedKey, setAcceptedKey] = useState<string | null>(null);
  const flagged: BelowCost[] = [];
  for (const item of basis.rate && basis.costs ? (plan?.items ?? []) : []) {
    if (!item.changes.some((change) => change.field === 'price')) continue;
    const price = prices.get(item.id);
    const facts = catalogue.get(item.id);
    const cost = facts?.itemId ? basis.costs?.get(facts.itemId)?.cost : undefined;
    // A card whose cost is not set has no break-even: it is never flagged against a $0.00.
    if (price === undefined || cost == null) continue;
    const estimate = estimateMargin(price, basis.rate!, cost, facts?.promoted);
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
  // A tick answers for these prices only: another edit that flags a price asks again.
  const key = flagged.map((row) => `${row.id}=${row.price}`).join();
  const accepted = flagged.length > 0 && acceptedKey === key;
  const these = flagged.length === 1 ? 'this one' : `these ${flagged.length}`;
  const sellThese = `Sell ${these} below cost`;
  const blocked =
    !basis.ready && !basis.failed
      ? 'Apply waits while each price is checked against its cost.'
      : flagged.length > 0 && !accepted
        ? `Apply waits on the ${countOf(flagged.length, 'price')} below cost: leave them out, floor them, or tick “${sellThese}”.`
        : undefined;
  const accept = (yes: boolean) => setAcceptedKey(yes ? key : null);
  return { flagged, accepted, accept, these, sellThese, blocked };
}

/** The below-cost warning: leave the prices out, floor them at break-even, or sell them so. */
export function BelowCostNotice({
  below: { flagged, accepted, accept, these, sellThese },
  originals,
  onSetPrices,
}: {
  below: ReturnType<typeof useBelowCost>;
  /** The price each row has now, by listing id. */
  originals: ReadonlyMap<string, string | undefined>;
  onSetPrices(prices: ReadonlyMap<string, string>, label: string): void;
}) {
  if (flagged.length === 0) return null;
  return (
    <section className="banner banner-warn" aria-labelledby="below-cost-heading">
      <h2 id="below-cost-heading">{countOf(flagged.length, 'listing')} would sell below cost</h2>
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
          Leave {these} out
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
        <CheckboxField label={sellThese}>
          {(control) => (
            <input
              type="checkbox"
              {...control}
              checked={accepted}
              onChange={(event) => accept(event.target.checked)}
            />
          )}
        </CheckboxField>
      </div>
    </section>
  );
}
