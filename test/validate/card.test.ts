import { describe, expect, it } from 'vitest';
import { cardBrand, luhnValid, maskPan, validateCardNumber, validateCvv, validateExpiry } from '../../src/validate/card.js';
import { expectValidationError } from './helpers.js';

describe('luhnValid', () => {
  it.each([
    ['4111111111111111', true],
    ['4000000000000002', true],
    ['5555555555554444', true],
    ['378282246310005', true],
    ['6362970000457013', true],
    ['4111111111111112', false],
    ['4000000000000001', false],
    ['5555555555554445', false],
    ['', false],
    ['4111 1111 1111 1111', false],
    ['abc', false],
  ])('%j → %s', (digits, valid) => {
    expect(luhnValid(digits)).toBe(valid);
  });
});

describe('cardBrand', () => {
  it.each([
    ['4111111111111111', 'Visa'],
    ['4000000000000002', 'Visa'],
    ['5555555555554444', 'MasterCard'],
    ['5105105105105100', 'MasterCard'],
    ['2221000000000009', 'MasterCard'],
    ['2720990000000007', 'MasterCard'],
    ['378282246310005', 'American Express'],
    ['341111111111111', 'American Express'],
    ['6362970000457013', 'Elo'],
    ['5067000000000000', 'Elo'],
    ['4011780000000000', 'Elo'],
    ['6504050000000000', 'Elo'],
    ['6062825624254001', 'Hipercard'],
    ['3841001111222233334', 'Hipercard'],
    ['30569309025904', 'Diners'],
    ['36227206271667', 'Diners'],
    ['38520000023237', 'Diners'],
    ['6011111111111117', 'Unknown'],
    ['1234567890123', 'Unknown'],
    ['', 'Unknown'],
    ['4111 1111 1111 1111', 'Visa'],
  ])('%s → %s', (digits, brand) => {
    expect(cardBrand(digits)).toBe(brand);
  });
});

describe('validateCardNumber', () => {
  it.each([
    ['4111111111111111', '4111111111111111'],
    ['4111 1111 1111 1111', '4111111111111111'],
    ['4111-1111-1111-1111', '4111111111111111'],
    [' 5555 5555 5555 4444 ', '5555555555554444'],
    ['378282246310005', '378282246310005'],
  ])('%j → %s', (input, digits) => {
    expect(validateCardNumber(input)).toBe(digits);
  });

  it.each([
    ['', /empty/],
    ['4111111111111112', /not valid.*check digit/],
    ['4111.1111.1111.1111', /only digits/],
    ['4111x111111111111', /only digits/],
    ['41111111111', /11 digits/],
    ['41111111111111111111', /20 digits/],
  ])('rejects %j', (input, message) => {
    expectValidationError(() => validateCardNumber(input), '--card-number', message);
  });

  it('never repeats the full card number in its message', () => {
    const error = expectValidationError(() => validateCardNumber('4111111111111112'), '--card-number');
    expect(error.message).not.toContain('4111111111111112');
    expect(error.message).toContain('4111********1112');
  });

  it('uses the flag it was given', () => {
    expectValidationError(() => validateCardNumber('1', '--card-file'), '--card-file');
  });
});

describe('validateExpiry', () => {
  const now = new Date('2026-03-15T12:00:00Z');

  it.each([
    ['3', '2026', { month: '03', year: '2026' }],
    ['03', '26', { month: '03', year: '2026' }],
    ['1', '27', { month: '01', year: '2027' }],
    ['12', '2030', { month: '12', year: '2030' }],
    [' 7 ', ' 2028 ', { month: '07', year: '2028' }],
    ['12', '2046', { month: '12', year: '2046' }],
  ])('%j/%j → %o', (month, year, expected) => {
    expect(validateExpiry(month, year, now)).toEqual(expected);
  });

  it.each([
    ['02', '2026', '--exp-month', /expired at the end of 02\/2026/],
    ['12', '2025', '--exp-year', /expired at the end of 12\/2025/],
    ['1', '20', '--exp-year', /expired/],
    ['13', '2027', '--exp-month', /not a month/],
    ['0', '2027', '--exp-month', /not a month/],
    ['00', '2027', '--exp-month', /not a month/],
    ['', '2027', '--exp-month', /not a month/],
    ['1a', '2027', '--exp-month', /not a month/],
    ['5', '202', '--exp-year', /not a year/],
    ['5', '2027x', '--exp-year', /not a year/],
    ['5', '', '--exp-year', /not a year/],
    ['5', '2047', '--exp-year', /more than 20 years ahead/],
    ['5', '99', '--exp-year', /more than 20 years ahead/],
  ])('rejects %j/%j on %s', (month, year, flag, message) => {
    expectValidationError(() => validateExpiry(month, year, now), flag, message);
  });

  it('keeps a card valid through the last day of its expiry month', () => {
    expect(validateExpiry('03', '2026', new Date('2026-03-31T23:59:59Z'))).toEqual({ month: '03', year: '2026' });
    // Still 31 March in UTC-12 at 11:59 UTC on 1 April.
    expect(validateExpiry('03', '2026', new Date('2026-04-01T11:59:59Z'))).toEqual({ month: '03', year: '2026' });
    expectValidationError(() => validateExpiry('03', '2026', new Date('2026-04-01T12:00:00Z')), '--exp-month', /expired/);
  });

  it('names the flags it is given', () => {
    const flags = { month: 'expiration_month', year: 'expiration_year' };
    expectValidationError(() => validateExpiry('13', '2027', now, flags), 'expiration_month');
    expectValidationError(() => validateExpiry('1', '2020', now, flags), 'expiration_year');
  });

  it('defaults to the current date', () => {
    const nextYear = String(new Date().getUTCFullYear() + 1);
    expect(validateExpiry('1', nextYear).year).toBe(nextYear);
    expectValidationError(() => validateExpiry('1', '2001'), '--exp-year', /expired/);
  });
});

describe('validateCvv', () => {
  it.each([
    ['123', '123'],
    ['1234', '1234'],
    ['007', '007'],
    [' 123 ', '123'],
  ])('%j → %s', (input, cvv) => {
    expect(validateCvv(input)).toBe(cvv);
  });

  it.each(['', '12', '12345', '12a', '1 23', '-123'])('rejects %j without echoing it', (input) => {
    const error = expectValidationError(() => validateCvv(input), '--cvv', /3 or 4 digits/);
    if (input.trim().length >= 2) expect(error.message).not.toContain(input.trim());
  });
});

describe('maskPan', () => {
  it.each([
    ['4111111111111111', '4111********1111'],
    ['378282246310005', '3782*******0005'],
    ['4111 1111 1111 1111', '4111********1111'],
    ['411111111111', '4111****1111'],
    ['4111111111111111111', '4111***********1111'],
    ['123456789', '*****6789'],
    ['1234', '****'],
    ['', ''],
  ])('%j → %s', (pan, masked) => {
    expect(maskPan(pan)).toBe(masked);
  });

  it('shows at most 8 digits of a real card number', () => {
    const masked = maskPan('5555555555554444');
    expect(masked.replace(/\*/g, '')).toHaveLength(8);
    expect(masked).toHaveLength(16);
  });
});
