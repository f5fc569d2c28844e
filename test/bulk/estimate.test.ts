import { describe, expect, it } from 'vitest';
import { BUCKET_RATES } from '../../src/client';
import {
  describeEstimate,
  estimateSeconds,
  formatDuration,
} from '../../src/features/listings/bulk-edit/logic/estimate';

const live = (level: number) => ({ ...BUCKET_RATES.live, level });
const test = (level: number) => ({ ...BUCKET_RATES.test, level });

describe('the bucket estimate', () => {
  it('lets the free room through at once, then the refill rate', () => {
    expect(estimateSeconds(212, live(0))).toBe(86);
    expect(describeEstimate(212, live(0))).toBe('212 changes, about 1 min 26 s');
    expect(estimateSeconds(40, live(0))).toBe(0);
    expect(estimateSeconds(41, live(0))).toBe(0.5);
    expect(estimateSeconds(120, live(0))).toBe(40);
  });

  it('accounts for the bucket level now', () => {
    expect(estimateSeconds(40, live(40))).toBe(20);
    expect(estimateSeconds(212, live(30))).toBe(101); // room 10
    expect(estimateSeconds(212, live(12.4))).toBe(86 + 6.5); // room 27 (a part-drained request still counts)
    expect(estimateSeconds(30, test(0))).toBe(10);
  });

  it('reads as a person says it', () => {
    expect(formatDuration(0)).toBe('under 1 s');
    expect(formatDuration(0.5)).toBe('1 s');
    expect(formatDuration(45)).toBe('45 s');
    expect(formatDuration(60)).toBe('1 min');
    expect(formatDuration(7530)).toBe('2 h 5 min');
    expect(describeEstimate(1, live(40))).toBe('one change, about 1 s');
    expect(describeEstimate(3, live(0))).toBe('3 changes, sent at once');
  });
});
