/** The browser's task scheduler where it has one (`scheduler.yield`, Chromium 129 and later). */
interface TaskScheduler {
  yield?: () => Promise<void>;
}

/**
 * Resumes in a new task so the page can paint and take input between (`scheduler.yield` where there
 * is one, ahead of other tasks).
 */
export function yieldToPage(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: TaskScheduler }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resume) => setTimeout(resume, 0));
}
