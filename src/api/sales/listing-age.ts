import { DAY_MS } from './money';

/** The age buckets of live listings, by whole days since `listed_at`. */
export const AGE_BUCKETS = [
  { id: '0-7', label: '0–7 days', min: 0, max: 7 },
  { id: '8-30', label: '8–30 days', min: 8, max: 30 },
  { id: '31-90', label: '31–90 days', min: 31, max: 90 },
  { id: '90+', label: 'Over 90 days', min: 91, max: Infinity },
] as const;
export type AgeBucketId = (typeof AGE_BUCKETS)[number]['id'];
export const AGE_BUCKET_IDS = AGE_BUCKETS.map((bucket) => bucket.id) as [
  AgeBucketId,
  ...AgeBucketId[],
];

/** Whole days from `listed_at` to `now` (never negative). */
export function ageInDays(listedAt: string, now: number): number {
  return Math.max(0, Math.floor((now - Date.parse(listedAt)) / DAY_MS));
}

/** The bucket of a listing listed at `listedAt`; undefined when it has no readable date. */
export function ageBucketOf(
  listedAt: string | null | undefined,
  now: number,
): AgeBucketId | undefined {
  if (!listedAt || Number.isNaN(Date.parse(listedAt))) return undefined;
  const days = ageInDays(listedAt, now);
  return AGE_BUCKETS.find((bucket) => days >= bucket.min && days <= bucket.max)?.id;
}
