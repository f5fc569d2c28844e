import { describe, expect, it } from 'vitest';
import { isoTime } from '../../src/sandbox/platform/time';

describe('timestamps as the API shows them', () => {
  it('writes every instant exactly as Date.prototype.toISOString does', () => {
    const edges = [
      0,
      1,
      999,
      1000,
      59_999,
      3_599_999,
      86_399_999,
      86_400_000,
      951_782_400_000, // 2000-02-29
      1_798_761_599_999, // 2026-12-31T23:59:59.999Z
      253_402_300_799_999, // the last four-digit-year instant
      253_402_300_800_000, // year 10000: expanded
      -1,
      -62_198_755_200_000, // before year 0
      1_700_000_000_000.5, // not a whole millisecond
    ];
    let seed = 42;
    const random = () => ((seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647) * 4e12;
    const values = [...edges, ...Array.from({ length: 5000 }, () => Math.floor(random()))];
    for (const ms of values) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    expect(isoTime(null)).toBeNull();
  });
});
