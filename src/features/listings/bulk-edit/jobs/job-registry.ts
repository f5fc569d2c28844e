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

/** A page's runs (one client per page): its runners, and the runs whose end the seller saw. */
interface PageRuns {
  runners: Map<string, JobRunner>;
  endSeen: Set<string>;
}

const pages = new WeakMap<SlabdeskClient, PageRuns>();

function runsOf(client: SlabdeskClient): PageRuns {
  let runs = pages.get(client);
  if (!runs) pages.set(client, (runs = { runners: new Map(), endSeen: new Set() }));
  return runs;
}

/** One runner per job for the page's life, so coming back shows the same run, not a second one. */
export function runnerFor(
  client: SlabdeskClient,
  job: BulkJob,
  onWrite: (result: WriteResult) => void,
): JobRunner {
  const { runners } = runsOf(client);
  let runner = runners.get(job.id);
  if (!runner) {
    runner = new JobRunner({ client, store: jobStore(), job, onWrite });
    runners.set(job.id, runner);
  }
  return runner;
}

export function existingRunner(client: SlabdeskClient, jobId: string): JobRunner | undefined {
  return runsOf(client).runners.get(jobId);
}

/** The seller saw the run end: it is not brought back to an editor opened later. */
export function sawEnd(client: SlabdeskClient, jobId: string): void {
  runsOf(client).endSeen.add(jobId);
}

/** This page's run of the job to show: going, or ended while the seller was elsewhere. */
export function runnerToShow(client: SlabdeskClient, jobId: string): JobRunner | undefined {
  const { runners, endSeen } = runsOf(client);
  const runner = runners.get(jobId);
  const state = runner?.getProgress().state;
  const ended = state === 'finished' || state === 'cancelled';
  return ended && endSeen.has(jobId) ? undefined : runner;
}

export function forgetRunner(client: SlabdeskClient, jobId: string): void {
  const { runners, endSeen } = runsOf(client);
  endSeen.delete(jobId);
  runners.get(jobId)?.dispose();
  runners.delete(jobId);
  releaseJob(jobId);
}
