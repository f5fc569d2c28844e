/**
 * How many strangers' bodies are read at once. Full, the newest request takes the slot of the one
 * that has been reading longest (it is cut off): a real delivery sends its body at once, so a slow
 * upload that holds a slot loses it to the next comer instead of keeping deliveries out.
 */
export class BodyReadSlots {
  /** The reads under way, oldest first (a Set keeps insertion order). */
  private readonly reading = new Set<AbortController>();
  private peakValue = 0;

  constructor(readonly size: number) {}

  /** A slot for one read: its signal aborts when a newer read takes the slot; release when done. */
  take(): { signal: AbortSignal; release: () => void } {
    if (this.reading.size >= this.size) {
      const oldest = this.reading.values().next().value;
      if (oldest) {
        this.reading.delete(oldest);
        oldest.abort();
      }
    }
    const controller = new AbortController();
    this.reading.add(controller);
    this.peakValue = Math.max(this.peakValue, this.reading.size);
    return { signal: controller.signal, release: () => this.reading.delete(controller) };
  }

  /** Reads under way now. */
  inUse(): number {
    return this.reading.size;
  }

  /** The most reads ever under way at once. */
  peak(): number {
    return this.peakValue;
  }
}
