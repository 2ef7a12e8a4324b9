// The pure money arithmetic at the schemas' maxima, where products pass 2^53: hand-computed figures.
import { describe, expect, it } from 'vitest';
import { lineAmount, mulDiv, spreadRedemption } from '../../../src/modules/checks/calculation.js';

describe('arithmetic past 2^53', () => {
  it('a line of the largest quantity and price, and one just below: exact to the cent', () => {
    expect(lineAmount(100_000, 100_000_000)).toBe(10_000_000_000_000);
    // 99,999,999 milli-units × 99,999,999 = 9,999,999,800,000,001 thousandths: 9,999,999,800,000.001 → rounds to …000.
    expect(lineAmount(99_999.999, 99_999_999)).toBe(9_999_999_800_000);
  });

  it('floor(a × b / c) of a product near 10^21', () => {
    // 100,000,000 × 9,999,999,999,999 = 999,999,999,999,900,000,000; ÷ 10^13 = 99,999,999.99999 → 99,999,999.
    expect(mulDiv(100_000_000, 9_999_999_999_999, 10_000_000_000_000)).toBe(99_999_999);
  });

  it('the largest redemption spread over two lines of 10^13 scale still adds up to itself', () => {
    // Shares 99,999,999 and 0; the cent left goes to the larger remainder (9,999,900,000,000 against 100,000,000).
    expect(spreadRedemption(100_000_000, [9_999_999_999_999, 1], [true, true])).toEqual([100_000_000, 0]);
    const shares = spreadRedemption(99_999_997, [9_999_999_999_999, 9_999_999_999_998, 9_999_999_999_997], [true, true, true]);
    expect(shares).toEqual([33_333_333, 33_333_332, 33_333_332]);
    expect(shares.reduce((a, b) => a + b, 0)).toBe(99_999_997);
  });
});
