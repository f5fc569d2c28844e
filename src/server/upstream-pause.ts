/** A wait as people say it: `24 h`, `90 min`, `45 s`. */
export function waitText(seconds: number): string {
  if (seconds >= 3600) {
    const hours = seconds / 3600;
    return `${Number.isInteger(hours) || hours >= 10 ? Math.round(hours) : hours.toFixed(1)} h`;
  }
  if (seconds >= 60) return `${Math.round(seconds / 60)} min`;
  return `${Math.ceil(seconds)} s`;
}

/** A moment as a clock reads it (`10:15 PM`), with its day when it is not today. */
export function clockText(at: number, now: number): string {
  const time = new Date(at).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });
  if (new Date(at).toDateString() === new Date(now).toDateString()) return time;
  const day = new Date(at).toLocaleDateString('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
  });
  return `${time} on ${day}`;
}
