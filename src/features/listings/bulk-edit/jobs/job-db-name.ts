import { JOB_DB } from '../../../../shared/browser-keeps';

/** The IndexedDB database of bulk jobs: named apart so a page can look for it without the store. */
export const JOB_DB_NAME = JOB_DB;

/**
 * False when this browser surely holds no bulk job; true when it may (or cannot list databases).
 */
export async function mayHoldJobs(factory: IDBFactory): Promise<boolean> {
  if (typeof factory.databases !== 'function') return true;
  const databases = await factory.databases().catch(() => undefined);
  return databases === undefined || databases.some((db) => db.name === JOB_DB_NAME);
}
