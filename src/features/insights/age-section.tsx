import { Link } from 'react-router';
import { useMemo } from 'react';
import { paths } from '../../shared/paths';
import type { ListingFacts as ListingRead } from '../../api/sales/sales-queries';
import { AGE_BUCKETS, ageBucketOf, type AgeBucketId } from '../../api/sales/listing-age';
import { BarChart } from './bar-chart';
import { axisCount } from './chart-ticks';

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
        <table className="simple-table">
          <caption>Live listings by age</caption>
          <thead>
            <tr>
              <th scope="col">Listed for</th>
              <th scope="col" className="num">
                Listings
              </th>
              <th scope="col">Act on them</th>
            </tr>
          </thead>
          <tbody>
            {buckets.map((bucket) => {
              const search = new URLSearchParams({ status: 'active', age: bucket.id });
              return (
                <tr key={bucket.id}>
                  <th scope="row">{bucket.label}</th>
                  <td className="num">{bucket.count}</td>
                  <td>
                    {/* No link to an empty set: "See 0" would open an empty page. */}
                    {bucket.count === 0 ? (
                      <span className="muted">None</span>
                    ) : (
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
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
