/** The bucket as the estimate needs it (a subset of the client's BucketSnapshot). */
export interface BucketLevel {
  capacity: number;
  perSecond: number;
  /** Requests in the bucket now (0: empty, capacity: full). */
  level: number;
}

/** Seconds the bucket needs for `writes`: its free room at once, the rest at the refill rate. */
export function estimateSeconds(writes: number, bucket: BucketLevel): number {
  if (writes <= 0) return 0;
  const room = Math.max(0, Math.floor(bucket.capacity - bucket.level));
  const waiting = Math.max(0, writes - room);
  return waiting / bucket.perSecond;
}

/** A duration as a seller reads it: "1 min 26 s", "45 s", "2 h 5 min", "under 1 s". */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return 'unknown';
  const total = Math.ceil(seconds - 1e-9);
  if (total <= 0) return 'under 1 s';
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return m > 0 ? `${h} h ${m} min` : `${h} h`;
  if (m > 0) return s > 0 ? `${m} min ${s} s` : `${m} min`;
  return `${s} s`;
}

/** "212 writes, about 1 min 26 s" (one write: "1 write, ..."). */
export function describeEstimate(writes: number, bucket: BucketLevel): string {
  const seconds = estimateSeconds(writes, bucket);
  const changes = writes === 1 ? 'one change' : `${writes} changes`;
  return `${changes}, ${seconds <= 0 ? 'sent at once' : `about ${formatDuration(seconds)}`}`;
}
