import { Link } from 'react-router';
import { DataTable, type Column } from '../../components/data-table';
import { Money } from '../../components/figure';
import { paths } from '../../shared/paths';
import { fieldsText } from './rule-words';

/** A listing a rule would change or did: before, after, its floor and why. */
export interface PlanRow {
  listingId: string;
  title: string;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  floor: string | null;
  why: string;
  outcome: string;
}

const COLUMNS: readonly Column<PlanRow>[] = [
  {
    id: 'listing',
    header: 'Listing',
    rowHeader: true,
    cell: (row) => (
      <>
        <Link to={paths.listing.to(row.listingId)}>{row.title}</Link>
        <div className="muted small">{row.outcome}</div>
      </>
    ),
  },
  { id: 'now', header: 'Now', cell: (row) => fieldsText(row.before) },
  { id: 'new', header: 'New', cell: (row) => fieldsText(row.after) },
  {
    id: 'floor',
    header: 'Floor',
    cell: (row) => (row.floor === null ? '—' : <Money amount={row.floor} />),
  },
  { id: 'why', header: 'Why', cell: (row) => row.why },
];

/** What a preview would change, or what a run changed, listing by listing. */
export function PlanTable({ caption, rows }: { caption: string; rows: readonly PlanRow[] }) {
  if (rows.length === 0) return <p>No listings in this rule’s scope.</p>;
  return (
    <DataTable
      caption={caption}
      rows={rows}
      columns={COLUMNS}
      getRowId={(row) => row.listingId}
      // A run of thousands of listings is drawn as it scrolls, changed ones first.
      windowed={rows.length > 100}
      showCaption
      className="plan-table"
    />
  );
}
