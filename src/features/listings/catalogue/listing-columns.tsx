import { Link } from 'react-router';
import { paths } from '../../../shared/paths';
import type { Column } from '../../../components/data-table';
import { FieldValue } from '../../../components/field-value';
import { StatusPill } from '../../../components/status-pill';
import { Money, ShortDate } from '../../../components/figure';
import { SlabIdentity } from '../../../components/slab-identity';
import type { CatalogueRow } from './catalogue-row';

const unreadable = (row: CatalogueRow, field: string) => row.unreadable.includes(field);

/** What the catalogue's rows carry beyond the documented list view, which adds columns. */
export interface ColumnExtras {
  /** Some row has the card's player (not in the documented list view). */
  player: boolean;
  /** Some row has `updated_at` (not in the documented list view); otherwise "Listed" is shown. */
  updated: boolean;
}

/** The status a seller reads: sold, else the off-marketplace reason as given. */
export function statusWord(
  row: Pick<CatalogueRow, 'status' | 'reason' | 'state'>,
): string | undefined {
  if (row.state === 'sold') return 'sold';
  return row.reason && row.status !== 'active' ? row.reason : row.status;
}

/** The catalogue table's columns (this feature's own definitions over the shared table). */
export function catalogueColumns(extras: ColumnExtras): Column<CatalogueRow>[] {
  const columns: (Column<CatalogueRow> | false)[] = [
    {
      id: 'title',
      header: 'Listing',
      sortable: true,
      width: extras.player ? '34%' : '44%',
      cell: (row) => (
        // The title wraps; year, set and photo under it tell one variant from another.
        <SlabIdentity
          title={
            <Link to={paths.listing.to(row.id)} className="cell-title">
              {row.title ?? 'A listing whose title could not be read'}
            </Link>
          }
          facts={{ year: row.year, set: row.set, imageSrc: row.imageSrc }}
        />
      ),
    },
    extras.player && {
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
      cell: (row) =>
        row.grader !== undefined || row.grade !== undefined ? (
          `${row.grader ?? '?'} ${row.grade ?? '?'}`
        ) : (
          <FieldValue value={undefined} unreadable notShown="—">
            {() => null}
          </FieldValue>
        ),
    },
    {
      id: 'cert',
      header: 'Cert',
      width: '10%',
      cell: (row) => (
        <FieldValue value={row.cert} unreadable={unreadable(row, 'card.cert_number')} notShown="—">
          {(cert) => <code data-figure="cert">{cert}</code>}
        </FieldValue>
      ),
    },
    {
      id: 'price',
      header: 'Price',
      sortable: true,
      width: '10%',
      align: 'right',
      cell: (row) => (
        <FieldValue value={row.priceText} unreadable={unreadable(row, 'price')} notShown="—">
          {(price) => <Money amount={price} />}
        </FieldValue>
      ),
    },
    {
      id: 'status',
      header: 'Status',
      sortable: true,
      width: '12%',
      cell: (row) => (
        <FieldValue value={statusWord(row)} unreadable={unreadable(row, 'status')} notShown="—">
          {(value) => <StatusPill value={value} />}
        </FieldValue>
      ),
    },
    extras.updated
      ? {
          id: 'updated',
          header: 'Updated',
          sortable: true,
          width: '11%',
          cell: (row) => <ShortDate iso={row.updatedAt} />,
        }
      : {
          id: 'listed',
          header: 'Listed',
          sortable: true,
          width: '11%',
          cell: (row) => <ShortDate iso={row.listedAt} />,
        },
  ];
  return columns.filter((column): column is Column<CatalogueRow> => column !== false);
}
