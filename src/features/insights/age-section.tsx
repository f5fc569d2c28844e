import { Link } from 'react-router';
import { useMemo } from 'react';
import { paths } from '../../shared/paths';
import type { ListingFacts as ListingRead } from '../../api/sales/sales-queries';
import { AGE_BUCKETS, ageBucketOf, type AgeBucketId } from '../../api/sales/listing-age';
import { BarChart } from './bar-chart';
import { axisCount } from './chart-ticks';
import { DataTable, type Column } from '../../components/data-table';

/** Live listings (`status` active) by days since `listed_at`. */
export function ageCounts(listings: readonly ListingRead[], now: number) {
  const counts = new Map<AgeBucketId, number>(AGE_BUCKETS.map((b) => [b.id, 0]));
  for (const listing of listings) {
    if (listing.status !== 'active') continue;
    const bucket = ageBucketOf(listing.listed_at, now);
    if (bucket) counts.set(bucket, (counts.get(bucket) ?? 0) + 1);
  }
  return AGE_BUCKETS.map((bucket) => ({ ...bucket, count: counts.get(bucket.id) ?? 0 }));
}

const AGE_COLUMNS: Column<ReturnType<typeof ageCounts>[number]>[] = [
  { id: 'age', header: 'Listed for', rowHeader: true, cell: (bucket) => bucket.label },
  { id: 'count', header: 'Listings', align: 'right', cell: (bucket) => bucket.count },
  {
    id: 'act',
    header: 'Act on them',
    cell: (bucket) => {
      const search = new URLSearchParams({ status: 'active', age: bucket.id });
      // No link to an empty set: "See 0" would open an empty page.
      if (bucket.count === 0) return <span className="muted">None</span>;
      return (
        <>
          <Link
            to={paths.listings.to(search)}
            aria-label={`See ${bucket.count} listed ${bucket.label.toLowerCase()}`}
          >
            See {bucket.count}
          </Link>{' '}
          ·{' '}
          <Link
            to={paths.bulkEdit.to({ search })}
            aria-label={`Bulk edit listings listed ${bucket.label.toLowerCase()}`}
          >
            Bulk edit
          </Link>
        </>
      );
    },
  },
];

/** The age of what is live; each bucket links to those listings and to the bulk editor. */
export function AgeSection({ listings, now }: { listings: readonly ListingRead[]; now: number }) {
  const buckets = useMemo(() => ageCounts(listings, now), [listings, now]);
  return (
    <section className="panel" aria-labelledby="age-heading">
      <h2 id="age-heading">Age of live listings</h2>
      <p className="muted">Days since each live listing was listed.</p>
      <div className="insights-section">
        <BarChart
          title="Live listings by age"
          valueName="listings"
          axis={{ format: axisCount, whole: true }}
          points={buckets.map((b) => ({
            label: b.label,
            value: b.count,
            display: String(b.count),
          }))}
        />
        <DataTable
          caption="Live listings by age"
          showCaption
          windowed={false}
          rows={buckets}
          getRowId={(bucket) => bucket.id}
          columns={AGE_COLUMNS}
        />
      </div>
    </section>
  );
}
