import { useEffect, useRef, useState } from 'react';
import { useApiClient } from '../../../../api/api-context';
import { isResumable, type BulkJob } from './job';
import { JobRunner, type WriteResult } from './job-runner';
import { jobStore } from './job-store';
import { claimJob, ownedElsewhere, releaseJob } from './job-lock';

/** One runner per job for the page's life, so coming back shows the same run, not a second one. */
const runners = new Map<string, JobRunner>();

export function forgetRunner(jobId: string): void {
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
        // The store may lag a run of this tab by a save: the runner's own state comes first.
        const going = (job: BulkJob) => {
          const state = runners.get(job.id)?.getProgress().state;
          return state === 'running' || state === 'pausing' || state === 'paused';
        };
        const open = jobs.filter((job) => isResumable(job) && (going(job) || !runners.get(job.id)));
        const goingHere = open.find(going);
        if (goingHere) {
          setRunner(runners.get(goingHere.id)!);
          running.current();
        }
        const left = open.filter((job) => !going(job));
        setResumable(left.filter((job) => !owned.has(job.id)));
        setElsewhere(
          left.filter((job) => owned.has(job.id)).map((job) => ({ job, refused: false })),
        );
      })
      .catch((error: unknown) => setStoreError(error));
    return () => {
      live = false;
    };
  }, []);

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
    forgetRunner(job.id); // and lets go of the job
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
