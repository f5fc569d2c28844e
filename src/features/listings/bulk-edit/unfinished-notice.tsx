import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { paths } from '../../../lib/paths';
import type { BulkJob } from './jobs/job';
import { mayHoldJobs } from './jobs/job-db-name';

/**
 * On every page but the bulk editor: a bulk edit that a reload or a closed tab left unfinished,
 * with a link back to it (the editor offers to resume it). The store's reader is loaded lazily
 * (about 1 KB) only when the browser keeps a bulk-edit database: a first visit loads none of it.
 */
export function UnfinishedBulkEditNotice() {
  const { pathname } = useLocation();
  const [jobs, setJobs] = useState<BulkJob[]>([]);
  const onEditor = pathname === paths.bulkEdit.pattern;
  useEffect(() => {
    if (onEditor || typeof indexedDB === 'undefined') return;
    let live = true;
    // Only where a job may be kept, the store's reader and the job's rules (the runner stays
    // with the editor): a seller who never ran a bulk edit loads neither.
    void mayHoldJobs(indexedDB)
      .then((may) =>
        may ? Promise.all([import('./jobs/idb-job-store'), import('./jobs/job')]) : undefined,
      )
      .then((modules) => {
        if (!modules) return [];
        const [store, job] = modules;
        return new store.IdbJobStore().list().then((all) => all.filter(job.isResumable));
      })
      .then((found) => {
        if (live) setJobs(found);
      })
      .catch(() => undefined); // no storage: nothing to offer
    return () => {
      live = false;
    };
  }, [onEditor]);
  const job = jobs[0];
  if (onEditor || !job) return null;
  const left = job.rows.filter((row) => row.outcome.state === 'pending').length;
  return (
    <p className="banner banner-info" role="status">
      An unfinished bulk edit ({job.label}, {left} row(s) not sent yet).{' '}
      <Link to={paths.bulkEdit.to({ ids: job.rows.map((row) => row.listingId) })}>
        Open it to resume
      </Link>
    </p>
  );
}
