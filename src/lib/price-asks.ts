/** When a price change is large enough to ask about first, and the question in a seller's words. */

import { centsOf, formatDollars } from '../shared/money';
import { countOf } from './format';

/** A bulk apply asks past 20 changes or $500 moved: more than a seller reads in the preview. */
export const ASK_OVER = { changes: 20, cents: 50_000 } as const;

/** "$X is N times $Y" for a price over 3 times or under a third of the last; else null. */
export function priceJump(last: string | null | undefined, next: string): string | null {
  const before = centsOf(last);
  const after = centsOf(next, { typed: true });
  if (before === undefined || after === undefined || before === 0) return null;
  const words = `${formatDollars(after)} is`;
  if (after > before * 3) {
    const ratio = after / before;
    const times = ratio >= 10 ? Math.round(ratio).toLocaleString('en-US') : ratio.toFixed(1);
    return `${words} ${times.replace(/\.0$/, '')} times ${formatDollars(before)}`;
  }
  if (after * 3 < before) {
    const percent = Math.round((after * 100) / before);
    return `${words} ${percent < 1 ? 'under 1%' : `${percent}%`} of ${formatDollars(before)}`;
  }
  return null;
}

/** A price before and after, in cents. */
export interface PriceMove {
  before: number;
  after: number;
}

/** "Lower 49 prices by $312.40 in all", "Raise 3 prices by $20.00 in all": each way said. */
export function priceMoveLines(moves: readonly PriceMove[]): string[] {
  const lines: string[] = [];
  for (const [verb, sign] of [
    ['Lower', -1],
    ['Raise', 1],
  ] as const) {
    const way = moves.filter((move) => Math.sign(move.after - move.before) === sign);
    if (way.length === 0) continue;
    const total = way.reduce((sum, move) => sum + Math.abs(move.after - move.before), 0);
    lines.push(`${verb} ${countOf(way.length, 'price')} by ${formatDollars(total)} in all`);
  }
  return lines;
}

/** The money moved either way, in cents: what the bulk threshold weighs. */
export const centsMoved = (moves: readonly PriceMove[]) =>
  moves.reduce((sum, move) => sum + Math.abs(move.after - move.before), 0);
