import { Link } from 'react-router';
import { paths } from '../../app/paths';
import type { Column } from '../../components/data-table';
import { StatusPill } from '../../components/status-pill';
import { formatDateTime, formatMoney } from '../../lib/format';
import type { CatalogueRow } from './catalogue-filters';

/** The catalogue table's columns (this feature's own definitions over the shared table). */
export const catalogueColumns: Column<CatalogueRow>[] = [
  {
    id: 'title',
    header: 'Listing',
    sortable: true,
    width: '34%',
    cell: (row) => (
      <Link to={paths.listing.to(row.id)} className="cell-title">
        {row.title}
      </Link>
    ),
  },
  {
    id: 'player',
    header: 'Player',
    sortable: true,
    width: '14%',
    cell: (row) => row.player || '—',
  },
  {
    id: 'grade',
    header: 'Grade',
    sortable: true,
    width: '9%',
    cell: (row) => `${row.grader} ${row.grade}`,
  },
  { id: 'cert', header: 'Cert', width: '10%', cell: (row) => <code>{row.cert}</code> },
  {
    id: 'price',
    header: 'Price',
    sortable: true,
    width: '10%',
    align: 'right',
    cell: (row) => formatMoney(row.priceText),
  },
  {
    id: 'status',
    header: 'Status',
    sortable: true,
    width: '12%',
    cell: (row) => (
      <StatusPill value={row.reason && row.status !== 'active' ? row.reason : row.status} />
    ),
  },
  {
    id: 'updated',
    header: 'Updated',
    sortable: true,
    width: '11%',
    cell: (row) => formatDateTime(row.updatedAt),
  },
];
