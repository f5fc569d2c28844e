/** The browser's task scheduler where it has one (`scheduler.yield`, Chromium 129 and later). */
interface TaskScheduler {
  yield?: () => Promise<void>;
}

/**
 * Ends the current task and resumes in a new one, so the page can paint and answer input in
 * between (work split this way never adds up to one long task). Resumes ahead of other queued
 * tasks where the browser can (`scheduler.yield`), after them otherwise.
 */
export function yieldToPage(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: TaskScheduler }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resume) => setTimeout(resume, 0));
}
