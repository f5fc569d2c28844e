import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { paths } from '../../../shared/paths';
import { mayHoldJobs } from './jobs/job-db-name';

const UnfinishedBulkEditBanner = lazy(() => import('./unfinished-banner'));

/** The unfinished-job banner, loaded only when the browser keeps a bulk-edit database. */
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
