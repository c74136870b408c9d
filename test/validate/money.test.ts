import { describe, expect, it } from 'vitest';
import { centsToDecimalString, decimalStringToCents, parseAmount, parseAmountCents } from '../../src/validate/money.js';
import { expectValidationError } from './helpers.js';

describe('parseAmount', () => {
  it.each([
    ['10.50', 1050],
    ['10,50', 1050],
    ['10', 1000],
    ['10.5', 1050],
    ['10,5', 1050],
    ['0.29', 29],
    ['0,29', 29],
    ['0.01', 1],
    ['19.99', 1999],
    ['1.10', 110],
    ['4.35', 435],
    ['1234,56', 123456],
    ['1234.56', 123456],
    ['0010.50', 1050],
    ['90071992547409.91', Number.MAX_SAFE_INTEGER],
  ])('%s → %i cents exactly', (input, cents) => {
    expect(parseAmount(input)).toBe(cents);
  });

  it('is exact where floating point is not (0.29 * 100 = 28.999…)', () => {
    expect(0.29 * 100).not.toBe(29);
    expect(parseAmount('0.29')).toBe(29);
    expect(parseAmount('1.13')).toBe(113);
  });

  it.each([
    ['', /give an amount/],
    ['0', /zero/],
    ['0.00', /zero/],
    ['0,0', /zero/],
    ['-10', /sign/],
    ['+10', /sign/],
    ['-0.01', /sign/],
    ['1.005', /more than 2 decimal places/],
    ['10.999', /more than 2 decimal places/],
    ['1.234', /more than 2 decimal places.*1234/],
    ['1,234', /more than 2 decimal places/],
    ['1.234,56', /thousands separator/],
    ['1,234.56', /thousands separator/],
    ['1.234.567', /thousands separator/],
    ['10 50', /space/],
    [' 10.50', /space/],
    ['10.50 ', /space/],
    ['1e3', /exponent/],
    ['1.5E2', /exponent/],
    ['abc', /not an amount/],
    ['10.5o', /not an amount/],
    ['R$10', /not an amount/],
    ['0x10', /not an amount/],
    ['Infinity', /not an amount/],
    ['NaN', /not an amount/],
    ['.50', /digits on both sides/],
    ['10.', /digits on both sides/],
    ['10,', /digits on both sides/],
    ['90071992547409.92', /too large/],
    ['99999999999999999999', /too large/],
  ])('rejects %j', (input, message) => {
    expectValidationError(() => parseAmount(input), '--amount', message);
  });

  it('names the flag it was given', () => {
    expectValidationError(() => parseAmount('x', '--late-fee'), '--late-fee');
  });
});

describe('parseAmountCents', () => {
  it.each([
    ['1050', 1050],
    ['1', 1],
    ['007', 7],
    [String(Number.MAX_SAFE_INTEGER), Number.MAX_SAFE_INTEGER],
  ])('%s → %i', (input, cents) => {
    expect(parseAmountCents(input)).toBe(cents);
  });

  it.each([
    ['', /whole number/],
    ['0', /zero/],
    ['-5', /whole number/],
    ['+5', /whole number/],
    ['10.50', /use --amount/],
    ['1e3', /whole number/],
    [' 5', /whole number/],
    ['9007199254740992', /too large/],
  ])('rejects %j', (input, message) => {
    expectValidationError(() => parseAmountCents(input), '--amount-cents', message);
  });
});

describe('centsToDecimalString', () => {
  it.each([
    [1050, '10.50'],
    [5, '0.05'],
    [0, '0.00'],
    [99, '0.99'],
    [100, '1.00'],
    [123456, '1234.56'],
    [-250, '-2.50'],
    [Number.MAX_SAFE_INTEGER, '90071992547409.91'],
  ])('%i → %s', (cents, text) => {
    expect(centsToDecimalString(cents)).toBe(text);
  });

  it.each([1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60])('refuses %d', (cents) => {
    expect(() => centsToDecimalString(cents)).toThrow(RangeError);
  });
});

describe('decimalStringToCents', () => {
  it.each([
    ['10.50', 1050],
    ['3', 300],
    ['1.1', 110],
    ['0.29', 29],
    ['19.99', 1999],
    ['1234.5', 123450],
    ['10.500', 1050],
    ['-2.00', -200],
    ['0', 0],
    ['-0.00', 0],
  ])('%s → %i', (text, cents) => {
    expect(decimalStringToCents(text)).toBe(cents);
  });

  it.each(['', 'abc', '1,50', '1.005', '1e3', '.5', '99999999999999999999'])('refuses %j', (text) => {
    expect(() => decimalStringToCents(text)).toThrow(RangeError);
  });

  it('round-trips with centsToDecimalString', () => {
    for (const cents of [1, 29, 1999, 100000, 123456789]) {
      expect(decimalStringToCents(centsToDecimalString(cents))).toBe(cents);
    }
  });
});
