/** Axis ticks: 0 and round steps (1, 2 or 5 times 10^n) up to `max`; `whole` for counts. */
export function niceTicks(max: number, { count = 4, whole = false } = {}): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw)!;
  const wholeStep = whole ? Math.max(1, Math.ceil(step)) : step;
  const ticks: number[] = [];
  for (let at = 0; ticks.length <= count + 1; at += wholeStep) {
    // Rounded to the step's decimals: 0.1 + 0.2 reads 0.3, not 0.30000000000000004.
    ticks.push(Number(at.toFixed(12)));
    if (at >= max) break;
  }
  return ticks;
}

const compactUsd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  notation: 'compact',
  maximumFractionDigits: 1,
});

/** An axis's money label from cents: "$0", "$850", "$1.2K". */
export const axisMoney = (cents: number) => compactUsd.format(cents / 100);

/** An axis's count label: "0", "12", "1.5K". */
export const axisCount = (value: number) =>
  new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 }).format(value);

/** An axis's share label from a 0–1 rate: "0%", "25%". */
export const axisPercent = (rate: number) => `${Math.round(rate * 100)}%`;
