import { useQuery } from '@tanstack/react-query';
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
  const onEditor = pathname === paths.bulkEdit.pattern;
  // Asked again each time the seller leaves the editor (staleTime 0), where a job may start.
  const mayHold = useQuery({
    queryKey: ['bulk-jobs', 'may-hold'],
    queryFn: () => mayHoldJobs(indexedDB),
    enabled: !onEditor && typeof indexedDB !== 'undefined',
    staleTime: 0,
    retry: false,
  }).data;
  if (onEditor || !mayHold) return null;
  return <UnfinishedBulkEditBanner />;
}
