import { Link } from 'react-router';
import { useEffect, useState } from 'react';
import { paths } from '../../../lib/paths';
import { IdbJobStore } from './jobs/idb-job-store';
import { isResumable, type BulkJob } from './jobs/job';
import { countOf } from '../../../lib/format';

/**
 * The banner of a bulk edit that a reload or a closed tab left unfinished, with a link back to
 * it (the editor offers to resume it). Loaded only where the browser keeps a bulk-edit database.
 */
export default function UnfinishedBulkEditBanner() {
  const [jobs, setJobs] = useState<BulkJob[]>([]);
  useEffect(() => {
    let live = true;
    new IdbJobStore()
      .list()
      .then((all) => {
        if (live) setJobs(all.filter(isResumable));
      })
      .catch(() => undefined); // no storage: nothing to offer
    return () => {
      live = false;
    };
  }, []);
  const job = jobs[0];
  if (!job) return null;
  const left = job.rows.filter((row) => row.outcome.state === 'pending').length;
  return (
    <p className="banner banner-info" role="status">
      An unfinished bulk edit ({job.label}, {countOf(left, 'row')} not sent yet).{' '}
      <Link to={paths.bulkEdit.to({ ids: job.rows.map((row) => row.listingId) })}>
        Open it to resume
      </Link>
    </p>
  );
}
