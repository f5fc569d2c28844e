/**
 * The benchmark convention: each `bench/*.bench.ts` default-exports a `Bench` naming the figures
 * it produces and a `run` that reports each as it is measured. `npm run bench -- PREFIX` runs the
 * benches that produce any figure starting with PREFIX (several, comma-separated).
 */
export interface Bench {
  /** The figure names this bench reports, e.g. `sandbox.read_single.rps`. */
  figures: readonly string[];
  run(report: (name: string, value: number) => void): Promise<void>;
}

/**
 * Whether `npm run bench -- PREFIX[,PREFIX...]` asks for the figure `name` (a prefix of it, or it
 * a prefix of one asked: `economy.reload` asks for every reload figure).
 */
export function figureAsked(name: string): boolean {
  return (process.argv[2] ?? '')
    .split(',')
    .some((prefix) => name.startsWith(prefix) || prefix.startsWith(name));
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
