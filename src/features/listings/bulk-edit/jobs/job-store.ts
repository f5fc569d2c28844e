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

export class MemoryJobStore implements JobStore {
  private readonly jobs = new Map<string, BulkJob>();

  async create(job: BulkJob): Promise<void> {
    this.jobs.set(job.id, clone(job));
  }

  async saveRow(jobId: string, row: JobRow): Promise<void> {
    const job = this.jobs.get(jobId);
    if (!job) throw new Error(`no job ${jobId}`);
    job.rows[row.index] = clone(row);
    job.updatedAt = Date.now();
  }

  async setState(jobId: string, state: JobState): Promise<void> {
    const job = this.jobs.get(jobId);
    if (!job) throw new Error(`no job ${jobId}`);
    job.state = state;
    job.updatedAt = Date.now();
  }

  async get(jobId: string): Promise<BulkJob | undefined> {
    const job = this.jobs.get(jobId);
    return job ? clone(job) : undefined;
  }

  async list(): Promise<BulkJob[]> {
    return [...this.jobs.values()].map(clone).sort((a, b) => b.createdAt - a.createdAt);
  }

  async remove(jobId: string): Promise<void> {
    this.jobs.delete(jobId);
  }
}
