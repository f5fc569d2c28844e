import { describe, expect, it } from 'vitest';
import { centsMoved, priceJump, priceMoveLines } from '../../src/lib/price-asks';

describe('when a price is far enough from the last to ask', () => {
  it('asks past 3 times or under a third, and says by how much', () => {
    expect(priceJump('531.99', '1,000,000')).toBe('$1,000,000.00 is 1,880 times $531.99');
    expect(priceJump('50.00', '500.00')).toBe('$500.00 is 10 times $50.00');
    expect(priceJump('50.00', '170.00')).toBe('$170.00 is 3.4 times $50.00');
    expect(priceJump('300.00', '10.00')).toBe('$10.00 is 3% of $300.00');
    expect(priceJump('999999.00', '10.00')).toBe('$10.00 is under 1% of $999,999.00');
  });

  it('does not ask within 3 times either way, nor when either price is unknown', () => {
    expect(priceJump('50.00', '150.00')).toBeNull();
    expect(priceJump('30.00', '10.00')).toBeNull();
    expect(priceJump(undefined, '500.00')).toBeNull();
    expect(priceJump('50.00', 'abc')).toBeNull();
  });

  it('names raises and lowers each with their money, in all', () => {
    const moves = [
      { before: 5000, after: 4500 },
      { before: 10000, after: 9000 },
      { before: 2000, after: 2500 },
      { before: 700, after: 700 },
    ];
    expect(priceMoveLines(moves)).toEqual([
      'Lower 2 prices by $15.00 in all',
      'Raise 1 price by $5.00 in all',
    ]);
    expect(centsMoved(moves)).toBe(2000);
  });
});
