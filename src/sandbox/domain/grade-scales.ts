import type { Grader } from './inventory';

/** Each grader's scale, 1 to 10: PSA gives halves from 1.5 to 8.5, the others from 1.5 to 9.5. */
export const GRADE_SCALES: Record<Grader, { min: number; max: number; highestHalf: number }> = {
  PSA: { min: 1, max: 10, highestHalf: 8.5 },
  BGS: { min: 1, max: 10, highestHalf: 9.5 },
  SGC: { min: 1, max: 10, highestHalf: 9.5 },
  CGC: { min: 1, max: 10, highestHalf: 9.5 },
};

/** A grade as text: the number, optionally followed by its label ("10 Gem Mint"). */
const GRADE_TEXT = /^(\d{1,2}(?:\.[05])?)(?: [A-Za-z][A-Za-z ]*)?$/;

/** Why a grade is not on the grader's scale, or null when it is. */
export function gradeProblem(grade: string, grader: Grader | undefined): string | null {
  const match = GRADE_TEXT.exec(grade);
  if (!match) return 'must be a grade number such as "9" or "8.5", optionally with its label';
  const value = Number(match[1]);
  const scale = GRADE_SCALES[grader ?? 'BGS'];
  const whole = Number.isInteger(value);
  if (value < scale.min || value > scale.max || (!whole && value > scale.highestHalf)) {
    const halves = `halves up to ${scale.highestHalf}`;
    return `must be on the ${grader ?? 'graders’'} scale: ${scale.min} to ${scale.max} (${halves})`;
  }
  return null;
}
