import { DURATION_HOURS } from '../client';
import { Options } from './options';

/** A listing window in words: 168 hours is "7 days"; an odd value stays in hours. */
export function durationLabel(hours: number): string {
  return hours % 24 === 0 ? `${hours / 24} days` : `${hours} hours`;
}

/** The `<option>`s of the four windows the spec allows (168, 336, 504 and 720 hours). */
export function DurationOptions() {
  return <Options of={DURATION_HOURS.map((hours) => [String(hours), durationLabel(hours)])} />;
}
