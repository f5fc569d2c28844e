import type { SlabdeskClient } from '../../../../client';
import { IdbJobStore } from './idb-job-store';
import type { BulkJob } from './job';
import { releaseJob } from './job-lock';
import { JobRunner, type WriteResult } from './job-runner';
import { MemoryJobStore, type JobStore } from './job-store';

let store: JobStore | undefined;

/** The page's job store: IndexedDB in the browser, memory where there is none (jsdom). */
export function jobStore(): JobStore {
  store ??= typeof indexedDB === 'undefined' ? new MemoryJobStore() : new IdbJobStore();
  return store;
}

const runners = new Map<string, JobRunner>();

/** One runner per job for the page's life, so coming back shows the same run, not a second one. */
export function runnerFor(
  client: SlabdeskClient,
  job: BulkJob,
  onWrite: (result: WriteResult) => void,
): JobRunner {
  let runner = runners.get(job.id);
  if (!runner) {
    runner = new JobRunner({ client, store: jobStore(), job, onWrite });
    runners.set(job.id, runner);
  }
  return runner;
}

export function existingRunner(jobId: string): JobRunner | undefined {
  return runners.get(jobId);
}

export function forgetRunner(jobId: string): void {
  runners.get(jobId)?.dispose();
  runners.delete(jobId);
  releaseJob(jobId);
}
