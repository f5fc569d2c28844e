import type { IDBPDatabase } from 'idb';
import { openBrowserDb } from '../../../../api/browser-db';
import { JOB_DB } from '../../../../shared/browser-keeps';
import type { BulkJob, JobRow, JobState } from './job';

/** Where running jobs are kept for a reload to resume: IndexedDB, or memory in tests. */
export interface JobStore {
  /** Saves a whole job (its rows with their keys) before anything is sent. */
  create(job: BulkJob): Promise<void>;
  /** Saves one row as it now stands (its writes' `done` and its outcome). */
  saveRow(jobId: string, row: JobRow): Promise<void>;
  setState(jobId: string, state: JobState): Promise<void>;
  get(jobId: string): Promise<BulkJob | undefined>;
  /** Every kept job, newest first. */
  list(): Promise<BulkJob[]>;
  remove(jobId: string): Promise<void>;
}

const clone = <T>(value: T): T => structuredClone(value);
const newestFirst = (a: BulkJob, b: BulkJob) => b.createdAt - a.createdAt;

export class MemoryJobStore implements JobStore {
  private readonly jobs = new Map<string, BulkJob>();

  private job(jobId: string): BulkJob {
    const job = this.jobs.get(jobId);
    if (!job) throw new Error(`no job ${jobId}`);
    job.updatedAt = Date.now();
    return job;
  }

  async create(job: BulkJob): Promise<void> {
    this.jobs.set(job.id, clone(job));
  }

  async saveRow(jobId: string, row: JobRow): Promise<void> {
    this.job(jobId).rows[row.index] = clone(row);
  }

  async setState(jobId: string, state: JobState): Promise<void> {
    this.job(jobId).state = state;
  }

  async get(jobId: string): Promise<BulkJob | undefined> {
    const job = this.jobs.get(jobId);
    return job ? clone(job) : undefined;
  }

  async list(): Promise<BulkJob[]> {
    return [...this.jobs.values()].map(clone).sort(newestFirst);
  }

  async remove(jobId: string): Promise<void> {
    this.jobs.delete(jobId);
  }
}

/** The job without its rows, by id. */
type JobHead = Omit<BulkJob, 'rows'> & { rowCount: number };
/** One record per row, keyed `[jobId, index]`. */
type RowRecord = JobRow & { jobId: string };

const rowsOf = (jobId: string) => IDBKeyRange.bound([jobId, 0], [jobId, Number.MAX_SAFE_INTEGER]);

/** Jobs in IndexedDB, head and rows apart, so a landed row is one small write. */
export class IdbJobStore implements JobStore {
  private db: Promise<IDBPDatabase> | undefined;

  constructor(private readonly factory: IDBFactory = indexedDB) {}

  private database(): Promise<IDBPDatabase> {
    this.db ??= openBrowserDb(this.factory, {
      name: JOB_DB,
      stores: { jobs: 'id', rows: ['jobId', 'index'] },
    });
    return this.db;
  }

  async create(job: BulkJob): Promise<void> {
    const tx = (await this.database()).transaction(['jobs', 'rows'], 'readwrite');
    const { rows, ...head } = job;
    await Promise.all([
      tx.objectStore('jobs').put({ ...head, rowCount: rows.length } satisfies JobHead),
      ...rows.map((row) =>
        tx.objectStore('rows').put({ ...row, jobId: job.id } satisfies RowRecord),
      ),
      tx.done,
    ]);
  }

  /** Changes a job's head in a transaction that may write its rows too. */
  private async patchHead(jobId: string, patch: Partial<JobHead>, row?: JobRow): Promise<void> {
    const tx = (await this.database()).transaction(['jobs', 'rows'], 'readwrite');
    const jobs = tx.objectStore('jobs');
    const [head] = await Promise.all([
      jobs.get(jobId) as Promise<JobHead | undefined>,
      row && tx.objectStore('rows').put({ ...row, jobId } satisfies RowRecord),
    ]);
    if (head) await jobs.put({ ...head, ...patch, updatedAt: Date.now() });
    await tx.done;
  }

  saveRow(jobId: string, row: JobRow): Promise<void> {
    return this.patchHead(jobId, {}, row);
  }

  setState(jobId: string, state: JobState): Promise<void> {
    return this.patchHead(jobId, { state });
  }

  async get(jobId: string): Promise<BulkJob | undefined> {
    const tx = (await this.database()).transaction(['jobs', 'rows'], 'readonly');
    const [head, records] = await Promise.all([
      tx.objectStore('jobs').get(jobId) as Promise<JobHead | undefined>,
      tx.objectStore('rows').getAll(rowsOf(jobId)) as Promise<RowRecord[]>,
    ]);
    if (!head) return undefined;
    const { rowCount: _rowCount, ...rest } = head;
    return {
      ...rest,
      rows: records.sort((a, b) => a.index - b.index).map(({ jobId: _jobId, ...row }) => row),
    };
  }

  async list(): Promise<BulkJob[]> {
    const heads = (await (await this.database()).getAll('jobs')) as JobHead[];
    const jobs = await Promise.all(heads.map((head) => this.get(head.id)));
    return jobs.filter((job): job is BulkJob => job !== undefined).sort(newestFirst);
  }

  async remove(jobId: string): Promise<void> {
    const tx = (await this.database()).transaction(['jobs', 'rows'], 'readwrite');
    await Promise.all([
      tx.objectStore('jobs').delete(jobId),
      tx.objectStore('rows').delete(rowsOf(jobId)),
      tx.done,
    ]);
  }
}

let store: JobStore | undefined;

/** The page's job store: IndexedDB in the browser, memory where there is none (jsdom). */
export function jobStore(): JobStore {
  store ??= typeof indexedDB === 'undefined' ? new MemoryJobStore() : new IdbJobStore();
  return store;
}
