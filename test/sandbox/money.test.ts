import { describe, expect, it } from 'vitest';
import { centsToDecimal, decimalToCents } from '../../src/sandbox/money.js';

describe('sandbox money', () => {
  it('reads back every amount centsToDecimal writes', () => {
    for (const cents of [0, 1, 5, 10, 99, 100, 101, 1234, -1, -5, -50, -1234, 49_999_99, 2 ** 40, -(2 ** 40)]) {
      expect(decimalToCents(centsToDecimal(cents))).toBe(cents);
    }
    for (let cents = -2000; cents <= 2000; cents += 7) expect(decimalToCents(centsToDecimal(cents))).toBe(cents);
  });

  it('reads amounts of another shape as before: one decimal, none, a sign', () => {
    expect(decimalToCents('1.5')).toBe(150);
    expect(decimalToCents('12')).toBe(1200);
    expect(decimalToCents('-3.1')).toBe(-310);
    expect(decimalToCents('0.123')).toBe(12);
  });
});
