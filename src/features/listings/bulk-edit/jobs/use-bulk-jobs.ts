import { useEffect, useRef, useState } from 'react';
import { useApiClient } from '../../../../lib/api-context';
import { isResumable, type BulkJob } from './job';
import type { JobRunner, WriteResult } from './job-runner';
import { existingRunner, forgetRunner, jobStore, runnerFor } from './job-registry';

/**
 * The bulk editor's jobs: on opening, the jobs in the browser's store that can be resumed, and a
 * run still going in this tab (the seller left the editor and came back), which `onRunning`
 * shows; then starting, resuming and discarding a job. A store failure is kept for the banner.
 */
export function useBulkJobs(onWrite: (result: WriteResult) => void, onRunning: () => void) {
  const client = useApiClient();
  const [runner, setRunner] = useState<JobRunner | null>(null);
  const [resumable, setResumable] = useState<BulkJob[]>([]);
  const [storeError, setStoreError] = useState<unknown>(null);
  const running = useRef(onRunning);
  useEffect(() => {
    running.current = onRunning;
  });

  useEffect(() => {
    let live = true;
    jobStore()
      .list()
      .then((jobs) => {
        if (!live) return;
        // The store may lag a run of this tab by a save: the runner's own state comes first.
        const going = (job: BulkJob) => {
          const state = existingRunner(job.id)?.getProgress().state;
          return state === 'running' || state === 'pausing' || state === 'paused';
        };
        const open = jobs.filter(
          (job) => isResumable(job) && (going(job) || !existingRunner(job.id)),
        );
        const goingHere = open.find(going);
        if (goingHere) {
          setRunner(existingRunner(goingHere.id)!);
          running.current();
        }
        setResumable(open.filter((job) => !going(job)));
      })
      .catch((error: unknown) => setStoreError(error));
    return () => {
      live = false;
    };
  }, []);

  const start = async (job: BulkJob, fresh: boolean) => {
    try {
      if (fresh) await jobStore().create(job);
    } catch (error) {
      setStoreError(error);
      return;
    }
    const next = existingRunner(job.id) ?? runnerFor(client, job, onWrite);
    setRunner(next);
    onRunning();
    void next.start();
  };

  const resume = (job: BulkJob) => {
    setResumable((jobs) => jobs.filter((j) => j.id !== job.id));
    void start(job, false);
  };

  const discard = (job: BulkJob) => {
    setResumable((jobs) => jobs.filter((j) => j.id !== job.id));
    forgetRunner(job.id);
    void jobStore().remove(job.id);
  };

  return { runner, setRunner, resumable, storeError, start, resume, discard };
}
