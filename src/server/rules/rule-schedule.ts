export const DAY_MS = 86_400_000;

/** One formatter per zone: making one costs about 20 times what using it does. */
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The day (`YYYY-MM-DD`) and time (`HH:MM`) a clock in `timeZone` reads at `at` (epoch ms). */
export function localDayAndTime(at: number, timeZone: string): { day: string; time: string } {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      timeZone,
      hourCycle: 'h23',
    });
    // The zones are the rules' own (a handful); the bound only guards against a surprise.
    if (formatters.size >= 1_000) formatters.clear();
    formatters.set(timeZone, formatter);
  }
  const parts = formatter.formatToParts(new Date(at));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return {
    day: `${part('year')}-${part('month')}-${part('day')}`,
    time: `${part('hour')}:${part('minute')}`,
  };
}

/** Minutes since the local midnight a clock in `timeZone` reads at `at`. */
function localMinutes(at: number, timeZone: string): number {
  const { time } = localDayAndTime(at, timeZone);
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

const MINUTE_MS = 60_000;
/** Within this long after the time, the day's run is "now" (the schedule's tick starts it). */
export const DUE_WINDOW_MS = 15 * MINUTE_MS;

/** The first moment `dayOffset` days from `now` the clock reads the time (or then, if just due). */
export function runAtDay(
  { time, timeZone }: { time: string; timeZone: string },
  now: number,
  dayOffset: number,
): number {
  const start = now + dayOffset * DAY_MS;
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  const target = hour * 60 + minute;
  const past = (((localMinutes(start, timeZone) - target) % 1440) + 1440) % 1440;
  if (past * MINUTE_MS < DUE_WINDOW_MS) return start;
  // The start of the minute, then as many minutes as the clock is short of the time.
  let at = start - (start % MINUTE_MS) + (1440 - past) * MINUTE_MS;
  for (let tries = 0; tries < 2; tries++) {
    const local = localMinutes(at, timeZone);
    if (local === target) return at;
    // The offset changed on the way: move by the difference (within half a day either way).
    const off = ((((target - local) % 1440) + 1440 + 720) % 1440) - 720;
    at += off * MINUTE_MS;
  }
  // The time does not occur that day (the clock skips it): the first quarter hour past it.
  for (let step = 0; step < 8; step++) {
    const candidate = at + step * 15 * MINUTE_MS;
    if (localMinutes(candidate, timeZone) > target) return candidate;
  }
  return at;
}
