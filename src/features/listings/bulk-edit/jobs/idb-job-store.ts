import type { BulkJob, JobRow, JobState } from './job';
import type { JobStore } from './job-store';
import { done, request } from '../../../../lib/idb-requests';
import { JOB_DB_NAME as DB_NAME } from './job-db-name';
import { unwrap } from 'idb';
import { openBrowserDb, type BrowserDbShape } from '../../../../api/browser-db';

/** The job without its rows: `{ id, createdAt, updatedAt, state, label, rowCount }`. */
const JOBS = 'jobs';
/** One record per row, keyed `[jobId, index]`: saved alone as each row lands. */
const ROWS = 'rows';

type JobHead = Omit<BulkJob, 'rows'> & { rowCount: number };
type RowRecord = JobRow & { jobId: string };

/** The job's head by id; its rows by job and index. */
const SHAPE: BrowserDbShape = {
  name: DB_NAME,
  stores: { [JOBS]: 'id', [ROWS]: ['jobId', 'index'] },
};

/** The raw database (this store speaks plain requests, `lib/idb-requests`). */
const open = (factory: IDBFactory): Promise<IDBDatabase> =>
  openBrowserDb(factory, SHAPE).then((db) => unwrap(db));

/** Jobs in IndexedDB, head and rows apart, so a landed row is one small write. */
export class IdbJobStore implements JobStore {
  private db: Promise<IDBDatabase> | undefined;

  constructor(private readonly factory: IDBFactory = indexedDB) {}

  private database(): Promise<IDBDatabase> {
    this.db ??= open(this.factory);
    return this.db;
  }

  async create(job: BulkJob): Promise<void> {
    const db = await this.database();
    const tx = db.transaction([JOBS, ROWS], 'readwrite');
    const { rows, ...head } = job;
    tx.objectStore(JOBS).put({ ...head, rowCount: rows.length } satisfies JobHead);
    const store = tx.objectStore(ROWS);
    for (const row of rows) store.put({ ...row, jobId: job.id } satisfies RowRecord);
    await done(tx);
  }

  async saveRow(jobId: string, row: JobRow): Promise<void> {
    const db = await this.database();
    const tx = db.transaction([JOBS, ROWS], 'readwrite');
    tx.objectStore(ROWS).put({ ...row, jobId } satisfies RowRecord);
    const jobs = tx.objectStore(JOBS);
    const head = (await request(jobs.get(jobId))) as JobHead | undefined;
    if (head) jobs.put({ ...head, updatedAt: Date.now() });
    await done(tx);
  }

  async setState(jobId: string, state: JobState): Promise<void> {
    const db = await this.database();
    const tx = db.transaction(JOBS, 'readwrite');
    const jobs = tx.objectStore(JOBS);
    const head = (await request(jobs.get(jobId))) as JobHead | undefined;
    if (head) jobs.put({ ...head, state, updatedAt: Date.now() });
    await done(tx);
  }

  async get(jobId: string): Promise<BulkJob | undefined> {
    const db = await this.database();
    const tx = db.transaction([JOBS, ROWS], 'readonly');
    const head = (await request(tx.objectStore(JOBS).get(jobId))) as JobHead | undefined;
    if (!head) return undefined;
    const range = IDBKeyRange.bound([jobId, 0], [jobId, Number.MAX_SAFE_INTEGER]);
    const records = (await request(tx.objectStore(ROWS).getAll(range))) as RowRecord[];
    const { rowCount: _rowCount, ...rest } = head;
    return {
      ...rest,
      rows: records.sort((a, b) => a.index - b.index).map(({ jobId: _jobId, ...row }) => row),
    };
  }

  async list(): Promise<BulkJob[]> {
    const db = await this.database();
    const tx = db.transaction(JOBS, 'readonly');
    const heads = (await request(tx.objectStore(JOBS).getAll())) as JobHead[];
    const jobs = await Promise.all(heads.map((head) => this.get(head.id)));
    return jobs
      .filter((job): job is BulkJob => job !== undefined)
      .sort((a, b) => b.createdAt - a.createdAt);
  }

  async remove(jobId: string): Promise<void> {
    const db = await this.database();
    const tx = db.transaction([JOBS, ROWS], 'readwrite');
    tx.objectStore(JOBS).delete(jobId);
    tx.objectStore(ROWS).delete(IDBKeyRange.bound([jobId, 0], [jobId, Number.MAX_SAFE_INTEGER]));
    await done(tx);
  }
}
