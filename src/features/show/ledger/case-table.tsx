import { useMemo } from 'react';
import { Link } from 'react-router';
import type { ListingRead } from '../../../client';
import { DataTable, type Column } from '../../../components/data-table';
import { formatMoney } from '../../../lib/format';
import { paths } from '../../../shared/paths';
import { SoldHere, type ShowChoice } from '../sold-here/sold-here';
import { CasePrice } from './case-price';

/** A listing brought to the show, as this device's copy has it (or not, when it has not). */
export interface CaseRow {
  id: string;
  row: ListingRead | undefined;
}

const columnsFor = (show: ShowChoice): readonly Column<CaseRow>[] => [
  {
    id: 'card',
    header: 'Card',
    cell: ({ id, row }) =>
      row ? <Link to={paths.listing.to(id)}>{row.title}</Link> : 'Not in this device’s copy',
  },
  {
    id: 'asking',
    header: 'Asking',
    align: 'right',
    cell: ({ row }) => <span className="figure">{formatMoney(row?.price)}</span>,
  },
  {
    id: 'table',
    header: 'At the table',
    labelled: false,
    cell: ({ row }) =>
      row && (
        <>
          {row.unavailable_reason !== 'sold' && <CasePrice listing={row} />}
          <SoldHere listing={row} show={show} />
        </>
      ),
  },
];

/** The case: each listing brought, its asking price, and the table's price and sale. */
export function CaseTable({ rows, show }: { rows: readonly CaseRow[]; show: ShowChoice }) {
  const columns = useMemo(() => columnsFor(show), [show]);
  return (
    <DataTable
      caption="Listings brought to this show"
      rows={rows}
      columns={columns}
      getRowId={(row) => row.id}
      windowed={false}
    />
  );
}
