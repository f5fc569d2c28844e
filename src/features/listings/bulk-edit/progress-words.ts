import type { RunnerProgress } from './jobs/job-runner';

/** Time left as a seller says it: "less than a minute", "about 3 minutes", "about 1 hour 5 minutes". */
export function timeLeftWords(seconds: number): string {
  if (!Number.isFinite(seconds)) return 'time left not known yet';
  if (seconds < 60) return 'less than a minute left';
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `about ${minutes === 1 ? '1 minute' : `${minutes} minutes`} left`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  const hourWords = hours === 1 ? '1 hour' : `${hours} hours`;
  return `about ${hourWords}${rest > 0 ? ` ${rest === 1 ? '1 minute' : `${rest} minutes`}` : ''} left`;
}

/** A run's progress in words ("3 of 120 saved · about 1 minute left"), never a rate of writes. */
export function progressWords(progress: RunnerProgress): string {
  const parts = [`${progress.done} of ${progress.rows} saved`];
  if (progress.failed > 0) parts.push(`${progress.failed} not saved`);
  if (progress.conflict > 0) parts.push(`${progress.conflict} sold or changed meanwhile`);
  const running = progress.state === 'running' || progress.state === 'pausing';
  if (!running && progress.pending > 0) parts.push(`${progress.pending} not sent yet`);
  const line = parts.join(', ');
  return running ? `${line} · ${timeLeftWords(progress.secondsLeft)}` : line;
}
