import { describe, expect, it } from 'vitest';
import {
  parseMetadata,
  validateBrazilianPhone,
  validateCurrency,
  validateEmail,
  validateId,
  validateInstallments,
  validatePhone,
} from '../../src/validate/misc.js';
import { expectValidationError } from './helpers.js';

describe('validateCurrency', () => {
  it.each([
    ['BRL', 'BRL'],
    ['brl', 'BRL'],
    ['Usd', 'USD'],
    [' eur ', 'EUR'],
  ])('%j → %s', (input, code) => {
    expect(validateCurrency(input)).toBe(code);
  });

  it.each(['', 'BR', 'BRLL', 'R$', '986', 'B R'])('rejects %j', (input) => {
    expectValidationError(() => validateCurrency(input), '--currency', /three letters/);
  });
});

describe('validateEmail', () => {
  it.each([
    ['maria@example.com', 'maria@example.com'],
    ['maria.silva+loja@mail.example.com.br', 'maria.silva+loja@mail.example.com.br'],
    [' joao@example.org ', 'joao@example.org'],
    ['a@b.co', 'a@b.co'],
  ])('%j → %s', (input, email) => {
    expect(validateEmail(input, '--email')).toBe(email);
  });

  it.each([
    '',
    'maria',
    'maria@',
    '@example.com',
    'maria@example',
    'maria@@example.com',
    'maria silva@example.com',
    'maria@exa mple.com',
    'maria@.example.com',
    'maria@example..com',
    'maria..silva@example.com',
    '.maria@example.com',
    'maria.@example.com',
    'maria@-example.com',
    'maria@example.c',
    `${'a'.repeat(250)}@example.com`,
  ])('rejects %j', (input) => {
    expectValidationError(() => validateEmail(input, '--to'), '--to', /e-mail address/);
  });
});

describe('validateInstallments', () => {
  it.each([
    ['1', 1],
    ['6', 6],
    ['12', 12],
    ['01', 1],
  ])('%j → %i', (input, n) => {
    expect(validateInstallments(input)).toBe(n);
  });

  it.each(['0', '13', '-1', '1.5', 'x', '', '100', '1e1'])('rejects %j', (input) => {
    expectValidationError(() => validateInstallments(input), '--installments', /1 to 12/);
  });
});

describe('validateId', () => {
  it.each(['abc', 'a1b2c3', 'tx_123-ABC', '0', 'a'.repeat(64), '3249465a7753536b62545a6c58494d67'])('accepts %j', (id) => {
    expect(validateId(id, 'transaction id', '<id>')).toBe(id);
  });

  it.each([
    ['abc/def', /^<id>: malformed transaction id "abc\/def"/],
    ['..', /malformed transaction id "\.\."/],
    ['../../v1/sellers', /malformed/],
    ['abc?x=1', /malformed/],
    ['abc#x', /malformed/],
    ['abc%2F', /malformed/],
    ['a b', /malformed/],
    [' abc', /malformed/],
    ['abc\n', /malformed/],
    ['ação', /malformed/],
    ['a'.repeat(65), /at most 64 characters/],
    ['', /missing transaction id/],
  ])('rejects %j', (input, message) => {
    expectValidationError(() => validateId(input, 'transaction id', '<id>'), '<id>', message);
  });

  it('cuts very long values in the message', () => {
    const error = expectValidationError(() => validateId('x/'.repeat(500), 'card id', '--card'), '--card');
    expect(error.message.length).toBeLessThan(200);
  });
});

describe('parseMetadata', () => {
  it.each([
    [[], {}],
    [['order=42'], { order: '42' }],
    [['order=42', 'channel=web'], { order: '42', channel: 'web' }],
    [['query=a=b&c=d'], { query: 'a=b&c=d' }],
    [['empty='], { empty: '' }],
    [['note=hello world'], { note: 'hello world' }],
  ] as Array<[string[], Record<string, string>]>)('%j → %o', (pairs, expected) => {
    expect(parseMetadata(pairs)).toEqual(expected);
  });

  it('keeps a "__proto__" key as data', () => {
    const result = parseMetadata(['__proto__=x']);
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.keys(result)).toEqual(['__proto__']);
    expect(result['__proto__']).toBe('x');
  });

  it.each([
    [['order'], /key=value/],
    [['=42'], /no key/],
    [[' =42'], /no key/],
    [['a=1', 'a=2'], /more than once/],
  ])('rejects %j', (pairs, message) => {
    expectValidationError(() => parseMetadata(pairs), '--metadata', message);
  });
});

describe('validatePhone', () => {
  it.each([
    ['11987654321', '11987654321'],
    ['(11) 98765-4321', '11987654321'],
    ['+55 11 98765-4321', '5511987654321'],
    ['11 3456.7890', '1134567890'],
  ])('%j → %s', (input, digits) => {
    expect(validatePhone(input, '--phone')).toBe(digits);
  });

  it.each([
    ['', /not a phone number/],
    ['98765-4321', /9 digits/],
    ['+55 (11) 98765-43210', /14 digits/],
    ['11 98765 4321 ramal 2', /not a phone number/],
    ['11+987654321', /not a phone number/],
  ])('rejects %j', (input, message) => {
    expectValidationError(() => validatePhone(input, '--to'), '--to', message);
  });
});

describe('validateBrazilianPhone', () => {
  const accepted: [string, string][] = [
    ['+55 21 99909-9999', '+55 21999099999'],
    ['+55 (21) 99909-9999', '+55 21999099999'],
    ['(21) 99909-9999', '+55 21999099999'],
    ['21999099999', '+55 21999099999'],
    ['5521999099999', '+55 21999099999'],
    ['(11) 3456-7890', '+55 1134567890'],
  ];
  it.each(accepted)('%s → %s', (input, expected) => {
    expect(validateBrazilianPhone(input)).toBe(expected);
  });
  const refused = ['+1 415 555 0100', '999099999', '(01) 99909-9999', '(21) 89909-9999', 'call me', '+55 21 9990'];
  it.each(refused)('refuses %s, naming the flag', (input) => {
    expect(() => validateBrazilianPhone(input, '--to')).toThrow(/^--to: /);
  });
});
