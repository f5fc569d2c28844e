/**
 * The benchmark convention: each `bench/*.bench.ts` default-exports a `Bench` naming the figures
 * it produces and a `run` that reports each as it is measured. `npm run bench -- PREFIX` runs the
 * benches that produce any figure starting with PREFIX.
 */
export interface Bench {
  /** The figure names this bench reports, e.g. `sandbox.read_single.rps`. */
  figures: readonly string[];
  run(report: (name: string, value: number) => void): Promise<void>;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export const round = (value: number, digits = 2) => Number(value.toFixed(digits));
