import type { Column } from '../../../components/data-table';
import { estimateMargin } from '../../../api/sales/margin';
import { formatDollars } from '../../../shared/money';
import type { MarginBasis } from '../../../api/sales/use-margin-basis';
import type { CatalogueRow } from './catalogue-row';

/** Net if sold less the card's cost at the learned fee rate; a dash when a figure is not known. */
export function MarginText({
  price,
  itemId,
  promoted,
  basis,
}: {
  price: string | number | undefined;
  itemId: string | undefined;
  promoted: boolean | undefined;
  basis: MarginBasis;
}) {
  const cost = itemId === undefined ? undefined : basis.costs?.get(itemId)?.cost;
  // No margin from a cost not set: a $0.00 stand-in would make the whole price look like margin.
  if (!basis.rate || price === undefined || cost == null) return <>—</>;
  const margin = estimateMargin(price, basis.rate, cost, promoted).marginCents!;
  return (
    <span className={margin < 0 ? 'below-cost' : undefined}>
      {formatDollars(margin)}
      {margin < 0 && <span className="visually-hidden"> (below cost)</span>}
    </span>
  );
}

export function marginColumn(basis: MarginBasis): Column<CatalogueRow> {
  return {
    id: 'margin',
    header: 'Margin',
    width: '9%',
    align: 'right',
    cell: (row) => (
      <MarginText price={row.priceText} itemId={row.itemId} promoted={row.promoted} basis={basis} />
    ),
  };
}
