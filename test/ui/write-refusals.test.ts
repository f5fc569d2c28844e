import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/client';
import { forgetVisitRefusal, noteWriteError, refusalReason } from '../../src/lib/write-access';

const refused = (status: number, code: string) =>
  new ApiError({ status, code, message: `refused: ${code}` });

afterEach(() => forgetVisitRefusal());

describe('a refused write that is not the form’s fault turns writes off', () => {
  it.each([
    ['test_mode_forbidden', /Test-mode keys are read-only/],
    ['insufficient_scope', /insufficient_scope/],
    ['role_forbidden', /role_forbidden/],
    ['seller_frozen', /seller_frozen/],
    ['seller_paused', /seller_paused/],
    ['seller_not_approved', /seller_not_approved/],
  ])('403 %s gives a reason', (code, words) => {
    expect(refusalReason(refused(403, code))).toMatch(words);
  });

  it.each([
    [422, 'validation_error'],
    [403, 'listing_write_forbidden'],
    [409, 'listing_write_conflict'],
    [0, 'network_error'],
  ])('%i %s is about this write, not every write', (status, code) => {
    expect(refusalReason(refused(status, code))).toBeNull();
    expect(() => noteWriteError(refused(status, code), 'key_1')).not.toThrow();
  });
});
