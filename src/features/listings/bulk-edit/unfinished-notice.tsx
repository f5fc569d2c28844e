import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { paths } from '../../../lib/paths';
import { mayHoldJobs } from './jobs/job-db-name';

const UnfinishedBulkEditBanner = lazy(() => import('./unfinished-banner'));

/**
 * On every page but the bulk editor: a bulk edit that a reload or a closed tab left unfinished,
 * with a link back to it. The banner, the store's reader and the job's rules are loaded lazily
 * (about 1.5 KB) only when the browser keeps a bulk-edit database: a first visit loads none.
 */
export function UnfinishedBulkEditNotice() {
  const { pathname } = useLocation();
  const [mayHold, setMayHold] = useState(false);
  const onEditor = pathname === paths.bulkEdit.pattern;
  useEffect(() => {
    if (onEditor || typeof indexedDB === 'undefined') return;
    let live = true;
    void mayHoldJobs(indexedDB)
      .then((may) => {
        if (live) setMayHold(may);
      })
      .catch(() => undefined); // no storage: nothing to offer
    return () => {
      live = false;
    };
  }, [onEditor]);
  if (onEditor || !mayHold) return null;
  return (
    <Suspense fallback={null}>
      <UnfinishedBulkEditBanner />
    </Suspense>
  );
}
