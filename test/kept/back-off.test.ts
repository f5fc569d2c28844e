import { describe, expect, it } from 'vitest';
import { backOffMs } from '../../src/api/kept/kept-query';

describe('the back-off after a failed read', () => {
  it('is a few seconds, doubles, and is capped at a couple of minutes', () => {
    expect(backOffMs(1)).toBeGreaterThanOrEqual(5_000);
    expect(backOffMs(50)).toBeLessThanOrEqual(120_000);
    expect(backOffMs(2)).toBe(2 * backOffMs(1));
    expect(backOffMs(50)).toBe(backOffMs(10));
  });
});
