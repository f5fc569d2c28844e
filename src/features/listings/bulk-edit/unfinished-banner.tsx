import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { paths } from '../../../shared/paths';
import { IdbJobStore } from './jobs/job-store';
import { isResumable } from './jobs/job';
import { ownedElsewhere } from './jobs/job-lock';
import { countOf } from '../../../lib/format';

/** A bulk edit a reload or closed tab left unfinished, with a link back to resume it. */
export default function UnfinishedBulkEditBanner() {
  // Read afresh at each mount (gcTime 0); no storage: nothing to offer.
  const { data } = useQuery({
    queryKey: ['bulk-jobs', 'unfinished'],
    queryFn: async () => {
      const job = (await new IdbJobStore().list()).find(isResumable);
      // Running in another tab (its owner): nothing to resume here yet.
      return job ? { job, elsewhere: await ownedElsewhere(job.id) } : null;
    },
    gcTime: 0,
    retry: false,
  });
  if (!data) return null;
  const { job, elsewhere } = data;
  const left = job.rows.filter((row) => row.outcome.state === 'pending').length;
  const intro = elsewhere ? 'A bulk edit is running in another tab' : 'An unfinished bulk edit';
  return (
    <p className="banner banner-info" role="status">
      {intro} ({job.label}, {countOf(left, 'row')} not sent yet).{' '}
      <Link to={paths.bulkEdit.to({ ids: job.rows.map((row) => row.listingId) })}>
        {elsewhere ? 'Open it to see its progress' : 'Open it to resume'}
      </Link>
    </p>
  );
}
