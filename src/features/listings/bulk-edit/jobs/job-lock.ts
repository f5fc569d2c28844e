/** A tab owns a job through a Web Lock freed on close (no Web Locks: every tab owns). */

const lockName = (jobId: string) => `slabdesk-bulk-job-${jobId}`;

/** The locks this tab holds, by job id: each one's release. */
const held = new Map<string, () => void>();

function locks(): LockManager | undefined {
  return typeof navigator === 'undefined' ? undefined : navigator.locks;
}

/** Takes the job for this tab: false when another tab holds it (it is running there). */
export function claimJob(jobId: string): Promise<boolean> {
  const manager = locks();
  if (held.has(jobId) || !manager) return Promise.resolve(true);
  return new Promise((claimed) => {
    manager
      .request(lockName(jobId), { ifAvailable: true }, (lock) => {
        if (!lock) {
          claimed(false);
          return undefined;
        }
        return new Promise<void>((release) => {
          held.set(jobId, release);
          claimed(true);
        });
      })
      .catch(() => claimed(false));
  });
}

/** Lets go of the job (its run ended, or this tab no longer shows it). */
export function releaseJob(jobId: string): void {
  held.get(jobId)?.();
  held.delete(jobId);
}

/** Whether another tab holds the job now. */
export async function ownedElsewhere(jobId: string): Promise<boolean> {
  const manager = locks();
  if (held.has(jobId) || !manager) return false;
  const state = await manager.query();
  return (state.held ?? []).some((lock) => lock.name === lockName(jobId));
}

/** Resolves once no tab holds the job (its owner finished, or closed); never while aborted. */
export function whenReleased(jobId: string, signal: AbortSignal): Promise<void> {
  const manager = locks();
  if (!manager) return Promise.resolve();
  // Taken and given back at once: it is granted only when the owner has let go.
  return manager.request(lockName(jobId), { signal }, () => undefined);
}
