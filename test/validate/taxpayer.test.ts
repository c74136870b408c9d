import { describe, expect, it } from 'vitest';
import { isValidCnpj, isValidCpf, validateTaxpayerId } from '../../src/validate/taxpayer.js';
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
  ])('%j → %s', (input, digits) => {
    expect(validateTaxpayerId(input)).toBe(digits);
  });

  it.each([
    ['', /CPF \(11 digits\) or CNPJ/],
    ['529.982.247-24', /not a valid CPF/],
    ['111.111.111-11', /not a valid CPF/],
    ['11.222.333/0001-82', /not a valid CNPJ/],
    ['00000000000000', /not a valid CNPJ/],
    ['1234567890', /10 digits; a CPF has 11 and a CNPJ 14/],
    ['123456789012', /12 digits/],
    ['529.982.247-2x', /only digits/],
    ['CPF 52998224725', /only digits/],
  ])('rejects %j', (input, message) => {
    expectValidationError(() => validateTaxpayerId(input), '--taxpayer-id', message);
  });

  it('names the flag it is given', () => {
    expectValidationError(() => validateTaxpayerId('1', '--payer-taxpayer-id'), '--payer-taxpayer-id');
  });
});
