import type { MetaStore } from '../store/meta-store';

/** The marketplace clock: real time plus a stored offset the control API moves forward. */
export function createClock(meta: MetaStore) {
  let offset = Number(meta.get('clock_offset_ms') ?? '0');
  return {
    now(): number {
      return Date.now() + offset;
    },
    advance(seconds: number): number {
      offset += Math.round(seconds * 1000);
      meta.set('clock_offset_ms', String(offset));
      return this.now();
    },
    /** Re-reads the offset (after a reset). */
    reload(): void {
      offset = Number(meta.get('clock_offset_ms') ?? '0');
    },
  };
}

export type Clock = ReturnType<typeof createClock>;
