import type { Grader } from './inventory';

/** Every grader grades 1 to 10 with halves from 1.5 up to this one (PSA stops at 8.5). */
const HIGHEST_HALF: Record<Grader, number> = { PSA: 8.5, BGS: 9.5, SGC: 9.5, CGC: 9.5 };

/** A grade as text: the number, optionally followed by its label ("10 Gem Mint"). */
const GRADE_TEXT = /^(\d{1,2}(?:\.[05])?)(?: [A-Za-z][A-Za-z ]*)?$/;

/** Why a grade is not on the grader's scale, or null when it is. */
export function gradeProblem(grade: string, grader: Grader | undefined): string | null {
  const match = GRADE_TEXT.exec(grade);
  if (!match) return 'must be a grade number such as "9" or "8.5", optionally with its label';
  const value = Number(match[1]);
  const highestHalf = HIGHEST_HALF[grader ?? 'BGS'];
  if (value < 1 || value > 10 || (!Number.isInteger(value) && value > highestHalf)) {
    return `must be on the ${grader ?? 'graders’'} scale: 1 to 10 (halves up to ${highestHalf})`;
  }
  return null;
}
