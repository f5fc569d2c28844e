/**
 * A calendar day (`YYYY-MM-DD`) in IANA zone `tz` (UTC when none) as instants; null when invalid.
 */
export function dayRange(day: string, tz: string | undefined): { from: number; to: number } | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const midnightUtc = Date.UTC(year, month - 1, date);
  const check = new Date(midnightUtc);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== date) return null;
  const zone = tz || 'UTC';
  let offset: (instant: number) => number;
  try {
    offset = zoneOffset(zone);
  } catch {
    return null;
  }
  return {
    from: localMidnight(midnightUtc, offset),
    to: localMidnight(midnightUtc + 86_400_000, offset),
  };
}

/** The instant the zone's clock reads the wall time `wallUtc` (a midnight written as UTC). */
function localMidnight(wallUtc: number, offset: (instant: number) => number): number {
  // The offset at the guess, then again at the result: right across a change of offset.
  const guess = wallUtc - offset(wallUtc);
  return wallUtc - offset(guess);
}

/** How far ahead of UTC the zone's clock is at an instant, in ms; throws on an unknown zone. */
function zoneOffset(timeZone: string): (instant: number) => number {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  return (instant) => {
    const parts: Record<string, number> = {};
    for (const part of format.formatToParts(instant)) parts[part.type] = Number(part.value);
    const wall = Date.UTC(
      parts.year!,
      parts.month! - 1,
      parts.day!,
      parts.hour!,
      parts.minute!,
      parts.second!,
    );
    return wall - Math.floor(instant / 1000) * 1000;
  };
}
