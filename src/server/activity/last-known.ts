import type { TrackedValues } from './listing-fields';

/**
 * The last known tracked fields of each listing seen, so a change can say what a field was: in
 * memory, bounded (oldest first out).
 */
export class LastKnownListings {
  private readonly map = new Map<string, TrackedValues>();

  constructor(private readonly capacity = 100_000) {}

  get(id: string): TrackedValues | undefined {
    return this.map.get(id);
  }

  /** Merges what an answer said of a listing; it becomes the most recently seen. */
  learn(id: string, values: TrackedValues): void {
    const known = this.map.get(id);
    this.map.delete(id);
    this.map.set(id, { ...known, ...values });
    if (this.map.size > this.capacity) {
      const oldest = this.map.keys().next().value;
      if (oldest !== undefined) this.map.delete(oldest);
    }
  }

  get size(): number {
    return this.map.size;
  }
}
