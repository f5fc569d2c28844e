import { createContext, useContext, type ReactNode } from 'react';
import { useMarginBasis, type MarginBasis } from '../../../../api/sales/use-margin-basis';
import { MarginText } from '../../catalogue/margin-column';
import type { BulkRow } from '../logic/rows';

const BasisContext = createContext<MarginBasis | undefined>(undefined);

/** Gives the grid's margin cells the learned fee rate and the cards' costs (one read for all). */
export function MarginBasisProvider({ children }: { children: ReactNode }) {
  const basis = useMarginBasis();
  return <BasisContext.Provider value={basis}>{children}</BasisContext.Provider>;
}

/** The margin over cost at the price in the cell as edited (a dash where it is not known). */
export function MarginCell({ price, row }: { price: string; row: BulkRow }) {
  const basis = useContext(BasisContext);
  if (!basis || basis.failed)
    return (
      <td className="num" data-field="margin" data-label="Margin">
        —
      </td>
    );
  const valid = /^\d+(\.\d{1,2})?$/.test(price.trim());
  return (
    <td className="num" data-field="margin" data-label="Margin">
      <MarginText
        price={valid ? price.trim() : undefined}
        itemId={row.itemId}
        promoted={row.promoted}
        basis={basis}
      />
    </td>
  );
}
