import { describe, expect, it } from 'vitest';
import { backOffMs } from '../../src/api/kept/kept-query';
import { ServerWalkGuard } from '../../src/server/walk-guard';

describe('the back-off after a failed read', () => {
  it('is a few seconds, doubles, and is capped at a couple of minutes', () => {
    expect(backOffMs(1)).toBeGreaterThanOrEqual(5_000);
    expect(backOffMs(50)).toBeLessThanOrEqual(120_000);
    expect(backOffMs(2)).toBe(2 * backOffMs(1));
    expect(backOffMs(50)).toBe(backOffMs(10));
  });
});

describe("the server walk's page budget", () => {
  it('stops after its budget of distinct pages', () => {
    const guard = new ServerWalkGuard(3);
    const page = (n: number) => Buffer.from(JSON.stringify({ listings: [{ id: `l${n}` }] }));
    expect(guard.check(page(1), 'u2')).toBeUndefined();
    expect(guard.check(page(2), 'u3')).toBeUndefined();
    expect(guard.check(page(3), 'u4')).toMatch(/more than 3 pages/);
  });
});
