import { isValidCreditCard } from '@brazilian-utils/brazilian-utils';
import { describe, expect, it } from 'vitest';
import { luhnValid, validateCardNumber } from '../../src/validate/card.js';
import { expectValidationError } from './helpers.js';

// luhnValid delegates to @brazilian-utils/brazilian-utils' isValidCreditCard; these pin down that
// it still takes every test card the sandbox and the suite use, and keeps its all-digits contract.
const TEST_CARDS = [
  '4111111111111111', '4000000000000002', '5555555555554444', '5105105105105100', '2221000000000009', '2720990000000007',
  '378282246310005', '341111111111111', '6362970000457013', '6062825624254001', '30569309025904',
  '36227206271667', '4012888888881881', '6011111111111117',
];

describe('luhnValid through the library', () => {
  it.each(TEST_CARDS)('accepts the test card %s, as the library does', (pan) => {
    expect(luhnValid(pan)).toBe(true);
    expect(isValidCreditCard(pan)).toBe(true);
  });

  it.each(['4111111111111112', '5555555555554445', '4000000000000001'])('rejects %s (check digit)', (pan) => {
    expect(luhnValid(pan)).toBe(false);
  });

  it('keeps its all-digits contract, where the library would read separators', () => {
    expect(isValidCreditCard('4111 1111 1111 1111')).toBe(true);
    expect(luhnValid('4111 1111 1111 1111')).toBe(false);
    expect(luhnValid('4111-1111-1111-1111')).toBe(false);
  });

  it('rejects numbers of the wrong length and same-digit placeholders that pass the arithmetic', () => {
    expect(luhnValid('0000000000000000')).toBe(false);
    expect(luhnValid('00000000000')).toBe(false);
    expect(luhnValid('41111111111111111111')).toBe(false);
  });

  it('validateCardNumber explains a same-digit placeholder', () => {
    expectValidationError(() => validateCardNumber('0000 0000 0000 0000'), '--card-number', /every digit the same; that is a placeholder/);
    expect(validateCardNumber('4111 1111 1111 1111')).toBe('4111111111111111');
  });
});
