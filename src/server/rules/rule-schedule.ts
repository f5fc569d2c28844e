const DAY_MS = 86_400_000;
const STEP_MS = 15 * 60_000;
/** How far a walk to the schedule's time looks: a day and two hours, in 15-minute steps. */
const STEPS = (26 * 60) / 15;

/** One formatter per time zone: making one costs about 20 times what using it does. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    // The zones are the rules' own (a handful); the bound only guards against a surprise.
    if (formatters.size >= 500) formatters.clear();
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The day (`YYYY-MM-DD`) and time (`HH:MM`) a clock in `timeZone` reads at `at` (epoch ms). */
export function localDayAndTime(at: number, timeZone: string): { day: string; time: string } {
  const parts = formatterOf(timeZone).formatToParts(new Date(at));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return {
    day: `${part('year')}-${part('month')}-${part('day')}`,
    time: `${part('hour')}:${part('minute')}`,
  };
}

/** Minutes since the local midnight a clock in `timeZone` reads at `at`. */
function localMinutes(at: number, timeZone: string): number {
  const [h, m] = localDayAndTime(at, timeZone).time.split(':').map(Number) as [number, number];
  return h * 60 + m;
}

/**
 * The first moment, stepping from `start` by 15 minutes (at most a day and two hours), at which a
 * clock in `timeZone` reads `time` (`HH:MM`) or up to 14 minutes past it within that hour: when
 * the schedule's tick starts that day's run. `start` itself when no step does.
 *
 * Computed by a jump to the step the clock says, checked once; a change of the zone's offset on
 * the way (summer time) falls back to the walk step by step, which the jump equals otherwise.
 */
export function firstStepAtLocalTime(start: number, time: string, timeZone: string): number {
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  const from = hour * 60 + minute;
  const to = Math.min(from + 15, hour * 60 + 60);
  const inWindow = (at: number) => {
    const local = localMinutes(at, timeZone);
    return local >= from && local < to;
  };
  const now = localMinutes(start, timeZone);
  const ahead = (((from - now) % 1440) + 1440) % 1440;
  // The least number of steps that reaches the window (none when already in it).
  const steps = now >= from && now < to ? 0 : Math.ceil(ahead / 15);
  if (steps < STEPS) {
    const at = start + steps * STEP_MS;
    // The clock moved by exactly the time stepped: no change of offset, so no earlier step could
    // have read the time.
    const local = localMinutes(at, timeZone);
    if (local === (now + steps * 15) % 1440 && local >= from && local < to) return at;
  }
  for (let step = 0; step < STEPS; step++) {
    const at = start + step * STEP_MS;
    if (inWindow(at)) return at;
  }
  return start;
}

/** The scheduled run `dayOffset` days from `now` (the time in its zone). */
export function runAtDay(
  schedule: { time: string; timeZone: string },
  now: number,
  dayOffset: number,
): number {
  return firstStepAtLocalTime(now + dayOffset * DAY_MS, schedule.time, schedule.timeZone);
}
