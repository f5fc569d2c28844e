import { useEffect, useEffectEvent, useState } from 'react';
import { useApiClient } from '../../../../api/api-context';
import { isResumable, type BulkJob } from './job';
import { JobRunner, runEnded, type WriteResult } from './job-runner';
import type { SlabdeskClient } from '../../../../client';
import { jobStore } from './job-store';
import { claimJob, ownedElsewhere, releaseJob } from './job-lock';

/** A page's runs: one runner per job for the page's life, so coming back shows the same run. */
const pages = new WeakMap<
  SlabdeskClient,
  { runners: Map<string, JobRunner>; endSeen: Set<string> }
>();

function runsOf(client: SlabdeskClient) {
  let runs = pages.get(client);
  if (!runs) pages.set(client, (runs = { runners: new Map(), endSeen: new Set() }));
  return runs;
}

/** The seller saw the run end: it is not brought back to an editor opened later. */
export function sawEnd(client: SlabdeskClient, jobId: string): void {
  runsOf(client).endSeen.add(jobId);
}

export function forgetRunner(client: SlabdeskClient, jobId: string): void {
  const { runners, endSeen } = runsOf(client);
  endSeen.delete(jobId);
  runners.get(jobId)?.dispose();
  runners.delete(jobId);
  releaseJob(jobId);
}

/** A job another tab is running: shown with its progress, not offered for resume or discard. */
export interface JobElsewhere {
  job: BulkJob;
  /** True when this tab's resume or discard of it was refused (the other tab took it first). */
  refused: boolean;
}

/** The editor's jobs (resumable, running here, owned by another tab); acts only on jobs this tab owns. */
export function useBulkJobs(onWrite: (result: WriteResult) => void, onRunning: () => void) {
  const client = useApiClient();
  const [runner, setRunner] = useState<JobRunner | null>(null);
  const [resumable, setResumable] = useState<BulkJob[]>([]);
  const [elsewhere, setElsewhere] = useState<JobElsewhere[]>([]);
  const [storeError, setStoreError] = useState<unknown>(null);
  const running = useEffectEvent(onRunning);

  useEffect(() => {
    let live = true;
    jobStore()
      .list()
      .then(async (jobs) => {
        const owned = new Set<string>();
        for (const job of jobs) if (await ownedElsewhere(job.id)) owned.add(job.id);
        if (!live) return;
        // A run comes back as left; the runner's own state counts, the store may lag it by a save.
        const { runners, endSeen } = runsOf(client);
        const here = jobs
          .map((job) => runners.get(job.id))
          .find(
            (runner) =>
              runner && !(runEnded(runner.getProgress().state) && endSeen.has(runner.job.id)),
          );
        if (here) {
          setRunner(here);
          running();
        }
        const left = jobs.filter((job) => isResumable(job) && !runners.has(job.id));
        setResumable(left.filter((job) => !owned.has(job.id)));
        setElsewhere(
          left.filter((job) => owned.has(job.id)).map((job) => ({ job, refused: false })),
        );
      })
      .catch((error: unknown) => setStoreError(error));
    return () => {
      live = false;
    };
  }, [client]);

  /** The job is another tab's: shown as running there, out of the offers. */
  const runsElsewhere = (job: BulkJob, refused: boolean) => {
    setResumable((jobs) => jobs.filter((j) => j.id !== job.id));
    setElsewhere((jobs) => [...jobs.filter((j) => j.job.id !== job.id), { job, refused }]);
  };

  /** Another tab let go of the job (it ended there, or closed): offered here if unfinished. */
  const released = async (jobId: string) => {
    setElsewhere((jobs) => jobs.filter((j) => j.job.id !== jobId));
    const job = await jobStore()
      .get(jobId)
      .catch(() => undefined);
    if (job && isResumable(job)) {
      setResumable((jobs) => [...jobs.filter((j) => j.id !== jobId), job]);
    }
  };

  const start = async (job: BulkJob, fresh: boolean) => {
    if (!(await claimJob(job.id))) {
      runsElsewhere(job, true);
      return;
    }
    try {
      if (fresh) await jobStore().create(job);
    } catch (error) {
      setStoreError(error);
      return;
    }
    const { runners } = runsOf(client);
    const next = runners.get(job.id) ?? new JobRunner({ client, store: jobStore(), job, onWrite });
    runners.set(job.id, next);
    setRunner(next);
    onRunning();
    void next.start();
  };

  const resume = (job: BulkJob) => {
    setResumable((jobs) => jobs.filter((j) => j.id !== job.id));
    void start(job, false);
  };

  const discard = async (job: BulkJob) => {
    if (!(await claimJob(job.id))) {
      runsElsewhere(job, true);
      return;
    }
    setResumable((jobs) => jobs.filter((j) => j.id !== job.id));
    await jobStore()
      .remove(job.id)
      .catch((error: unknown) => setStoreError(error));
    forgetRunner(client, job.id); // and lets go of the job
  };

  return {
    runner,
    setRunner,
    resumable,
    elsewhere,
    released,
    storeError,
    start,
    resume,
    discard,
  };
}
