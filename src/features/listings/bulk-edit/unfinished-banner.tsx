import { Link } from 'react-router';
import { useEffect, useState } from 'react';
import { paths } from '../../../shared/paths';
import { IdbJobStore } from './jobs/job-store';
import { isResumable, type BulkJob } from './jobs/job';
import { ownedElsewhere } from './jobs/job-lock';
import { countOf } from '../../../lib/format';

/** A bulk edit a reload or closed tab left unfinished, with a link back to resume it. */
export default function UnfinishedBulkEditBanner() {
  const [jobs, setJobs] = useState<BulkJob[]>([]);
  /** The first job is running in another tab (its owner): nothing to resume here yet. */
  const [elsewhere, setElsewhere] = useState(false);
  useEffect(() => {
    let live = true;
    new IdbJobStore()
      .list()
      .then(async (all) => {
        const open = all.filter(isResumable);
        const owned = open[0] ? await ownedElsewhere(open[0].id) : false;
        if (!live) return;
        setJobs(open);
        setElsewhere(owned);
      })
      .catch(() => undefined); // no storage: nothing to offer
    return () => {
      live = false;
    };
  }, []);
  const job = jobs[0];
  if (!job) return null;
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
