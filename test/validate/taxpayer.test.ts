import { describe, expect, it } from 'vitest';
import { generateCnpj, isValidCnpj as libIsValidCnpj } from '@brazilian-utils/brazilian-utils';
import { isValidCnpj, isValidCpf, normalizeTaxpayerId, validateTaxpayerId } from '../../src/validate/taxpayer.js';
import { expectValidationError } from './helpers.js';

describe('isValidCpf', () => {
  it.each([
    ['529.982.247-25', true],
    ['52998224725', true],
    ['123.456.789-09', true],
    ['111.444.777-35', true],
    ['529.982.247-24', false],
    ['529.982.247-15', false],
    ['12345678900', false],
    ['000.000.000-00', false],
    ['111.111.111-11', false],
    ['99999999999', false],
    ['5299822472', false],
    ['11.222.333/0001-81', false],
    ['5299822472X', false],
    ['', false],
  ])('%j → %s', (value, valid) => {
    expect(isValidCpf(value)).toBe(valid);
  });
});

describe('isValidCnpj', () => {
  it.each([
    ['11.222.333/0001-81', true],
    ['11222333000181', true],
    ['12.345.678/0001-95', true],
    ['11.222.333/0001-82', false],
    ['11.222.333/0001-71', false],
    ['00.000.000/0000-00', false],
    ['11.111.111/1111-11', false],
    ['529.982.247-25', false],
    ['', false],
    // The alphanumeric CNPJ (Receita Federal, from July 2026): letters in the first 12 characters.
    ['12.ABC.345/01DE-35', true],
    ['12ABC34501DE35', true],
    ['12.abc.345/01de-35', true],
    ['12.ABC.345/01DE-36', false],
    ['12.ABC.345/01DF-35', false],
    ['12.ABC.345/01DE-3A', false],
    ['12ABC34501DE3', false],
  ])('%j → %s', (value, valid) => {
    expect(isValidCnpj(value)).toBe(valid);
  });
});

describe('validateTaxpayerId', () => {
  it.each([
    ['529.982.247-25', '52998224725'],
    ['52998224725', '52998224725'],
    ['123.456.789-09', '12345678909'],
    ['12.345.678/0001-95', '12345678000195'],
    ['11.222.333/0001-81', '11222333000181'],
    [' 11222333000181 ', '11222333000181'],
    ['12.ABC.345/01DE-35', '12ABC34501DE35'],
    ['12ABC34501DE35', '12ABC34501DE35'],
    ['12.abc.345/01de-35', '12ABC34501DE35'],
    [' 12 ABC 345 01DE 35 ', '12ABC34501DE35'],
  ])('%j → %s', (input, normalised) => {
    expect(validateTaxpayerId(input)).toBe(normalised);
  });

  it('accepts any alphanumeric CNPJ the library generates, in any case, and keeps punctuation out', () => {
    for (let i = 0; i < 50; i++) {
      const cnpj = generateCnpj(2);
      const punctuated = `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-${cnpj.slice(12)}`;
      expect(validateTaxpayerId(punctuated.toLowerCase())).toBe(cnpj);
      expect(validateTaxpayerId(punctuated)).toMatch(/^[0-9A-Z]{12}\d{2}$/);
    }
  });

  it('the example is a real alphanumeric CNPJ to the library too', () => {
    expect(libIsValidCnpj('12.ABC.345/01DE-35', { version: 2 })).toBe(true);
    expect(libIsValidCnpj('12.ABC.345/01DE-35')).toBe(false); // version 1 is numeric only
    expect(normalizeTaxpayerId('12.abc.345/01de-35')).toBe('12ABC34501DE35');
  });

  it.each([
    ['', /CPF \(11 digits\) or CNPJ/],
    ['529.982.247-24', /not a valid CPF/],
    ['111.111.111-11', /not a valid CPF/],
    ['11.222.333/0001-82', /not a valid CNPJ/],
    ['00000000000000', /not a valid CNPJ \(a number with every digit the same/],
    ['1234567890', /10 digits; a CPF has 11 digits and a CNPJ 14 characters/],
    ['123456789012', /12 digits/],
    ['12ABC34501DE3', /13 characters; a CPF has 11 digits and a CNPJ 14 characters/],
    ['529.982.247-2x', /not a valid CPF: a CPF has digits only/],
    ['CPF 52998224725', /has letters in it; did you mean the CPF 52998224725\?/],
    ['CNPJ 11.222.333/0001-81', /did you mean the CNPJ 11222333000181\?/],
    ['12.ABC.345/01DE-36', /"12.ABC.345\/01DE-36" is not a valid CNPJ \(the check digits do not match\); look for a typo/],
    ['12.abc.345/01de-53', /not a valid CNPJ \(the check digits do not match\)/],
    ['12.ABC.345/01DE-3E', /its last two characters are check digits, always digits/],
    ['529_982_247_25', /should contain only digits and letters/],
    ['12.ÁBC.345/01DE-35', /should contain only digits and letters/],
    ['12#ABC34501DE35', /should contain only digits and letters/],
  ])('rejects %j', (input, message) => {
    expectValidationError(() => validateTaxpayerId(input), '--taxpayer-id', message);
  });

  it('names the flag it is given', () => {
    expectValidationError(() => validateTaxpayerId('1', '--payer-taxpayer-id'), '--payer-taxpayer-id');
  });
});

describe('maskTaxpayerId (the buyers table)', () => {
  it('keeps the last four characters of a CPF, a numeric CNPJ and an alphanumeric CNPJ', async () => {
    const { maskTaxpayerId } = await import('../../src/commands/buyers/shared.js');
    expect(maskTaxpayerId('52998224725')).toBe('***.***.*47-25');
    expect(maskTaxpayerId('11222333000181')).toBe('**.***.***/**01-81');
    expect(maskTaxpayerId('12ABC34501DE35')).toBe('**.***.***/**DE-35');
    expect(maskTaxpayerId(null)).toBe('');
  });
});
