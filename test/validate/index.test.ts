import { describe, expect, it } from 'vitest';
import * as validate from '../../src/validate/index.js';

describe('validate/index', () => {
  it('re-exports every check but the card and CPF/CNPJ ones, which bring a library of their own', () => {
    expect(Object.keys(validate).sort()).toEqual(
      [
        'centsToDecimalString',
        'dayStartSeconds',
        'nextDay',
        'decimalStringToCents',
        'parseAmount',
        'parseAmountCents',
        'parseDate',
        'parseDateTime',
        'parseMetadata',
        'validateCurrency',
        'validateEmail',
        'validateId',
        'validateInstallments',
        'validatePhone',
        'validateBrazilianPhone',
        'writtenDay',
        'writtenDayWithin',
      ].sort(),
    );
    for (const value of Object.values(validate)) expect(typeof value).toBe('function');
  });
});
