import { describe, expect, it } from 'vitest';
import * as validate from '../../src/validate/index.js';

describe('validate/index', () => {
  it('re-exports every check', () => {
    expect(Object.keys(validate).sort()).toEqual(
      [
        'cardBrand',
        'centsToDecimalString',
        'dateToEpochRange',
        'decimalStringToCents',
        'isValidCnpj',
        'isValidCpf',
        'luhnValid',
        'maskPan',
        'parseAmount',
        'parseAmountCents',
        'parseDate',
        'parseDateTime',
        'parseMetadata',
        'validateCardNumber',
        'validateCurrency',
        'validateCvv',
        'validateEmail',
        'validateExpiry',
        'validateId',
        'validateInstallments',
        'validatePhone',
        'validateBrazilianPhone',
        'validateTaxpayerId',
      ].sort(),
    );
    for (const value of Object.values(validate)) expect(typeof value).toBe('function');
  });
});
