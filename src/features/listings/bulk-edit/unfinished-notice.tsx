import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { paths } from '../../../shared/paths';
import { JOB_DB } from '../../../shared/browser-keeps';
import { lazyPart } from '../../../components/lazy-part';

const UnfinishedBulkEditBanner = lazyPart(() =>
  import('./unfinished-banner').then((module) => module.default),
);

/** False when this browser surely holds no bulk job; true when it may (or cannot list databases). */
async function mayHoldJobs(factory: IDBFactory): Promise<boolean> {
  if (typeof factory.databases !== 'function') return true;
  const databases = await factory.databases().catch(() => undefined);
  return databases === undefined || databases.some((db) => db.name === JOB_DB);
}

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
  return <UnfinishedBulkEditBanner />;
}
