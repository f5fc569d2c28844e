import { useEffect, useRef, useState } from 'react';
import { useApiClient } from '../../../../api/api-context';
import { isResumable, type BulkJob } from './job';
import type { JobRunner, WriteResult } from './job-runner';
import { existingRunner, forgetRunner, jobStore, runnerFor, runnerToShow } from './job-registry';
import { claimJob, ownedElsewhere } from './job-lock';

/** A job another tab is running: shown with its progress, not offered for resume or discard. */
export interface JobElsewhere {
  job: BulkJob;
  /** True when this tab's resume or discard of it was refused (the other tab took it first). */
  refused: boolean;
}

/**
 * The editor's jobs: resumable ones in the store, a run still going in this tab, those another tab
 * owns; start, resume and discard once this tab owns the job. A store failure goes to the banner.
 */
export function useBulkJobs(onWrite: (result: WriteResult) => void, onRunning: () => void) {
  const client = useApiClient();
  const [runner, setRunner] = useState<JobRunner | null>(null);
  const [resumable, setResumable] = useState<BulkJob[]>([]);
  const [elsewhere, setElsewhere] = useState<JobElsewhere[]>([]);
  const [storeError, setStoreError] = useState<unknown>(null);
  const running = useRef(onRunning);
  useEffect(() => {
    running.current = onRunning;
  });

  useEffect(() => {
    let live = true;
    jobStore()
      .list()
      .then(async (jobs) => {
        const owned = new Set<string>();
        for (const job of jobs) if (await ownedElsewhere(job.id)) owned.add(job.id);
        if (!live) return;
        // A run of this tab comes back as they left it, going or ended while they were away (the
        // store may lag it by a save: the runner's own state counts).
        const here = jobs.map((job) => runnerToShow(client, job.id)).find(Boolean);
        if (here) {
          setRunner(here);
          running.current();
        }
        const left = jobs.filter((job) => isResumable(job) && !existingRunner(client, job.id));
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
    const next = existingRunner(client, job.id) ?? runnerFor(client, job, onWrite);
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
