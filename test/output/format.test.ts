import { Chalk } from 'chalk';
import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { colorStatus, formatDateTime, formatMoney, kindForKey } from '../../src/output/format.js';

describe('formatMoney', () => {
  it.each([
    ['1234.56', undefined, 'R$ 1.234,56'],
    ['1234.5', undefined, 'R$ 1.234,50'],
    ['10.50', 'BRL', 'R$ 10,50'],
    ['0.29', 'BRL', 'R$ 0,29'],
    ['3', 'BRL', 'R$ 3,00'],
    ['1.1', 'BRL', 'R$ 1,10'],
    ['0', 'BRL', 'R$ 0,00'],
    ['1000000', 'BRL', 'R$ 1.000.000,00'],
    ['123456789.99', 'BRL', 'R$ 123.456.789,99'],
    ['90071992547409.91', 'BRL', 'R$ 90.071.992.547.409,91'],
    ['999999999999999999999.99', 'BRL', 'R$ 999.999.999.999.999.999.999,99'],
    ['100.00', 'BRL', 'R$ 100,00'],
    ['10.500', 'BRL', 'R$ 10,50'],
    ['10.505', 'BRL', 'R$ 10,505'],
    ['007.10', 'BRL', 'R$ 7,10'],
    ['-2.5', 'BRL', '-R$ 2,50'],
    ['-0.00', 'BRL', 'R$ 0,00'],
    ['1234.56', 'USD', 'USD 1.234,56'],
    ['1234.56', 'usd', 'USD 1.234,56'],
    ['1234.56', '', 'R$ 1.234,56'],
    [1234.5, 'BRL', 'R$ 1.234,50'],
    [0.1, 'BRL', 'R$ 0,10'],
    [19.99, 'EUR', 'EUR 19,99'],
  ] as Array<[string | number, string | undefined, string]>)('%j %s → %s', (amount, currency, expected) => {
    expect(formatMoney(amount, currency)).toBe(expected);
  });

  it('uses a plain space after R$', () => {
    expect(formatMoney('1')).toBe('R$\u00201,00');
  });

  it.each(['abc', '', '1,50', '1e3', 'NaN'])('leaves %j as it is', (value) => {
    expect(formatMoney(value)).toBe(value);
  });
});

describe('formatDateTime', () => {
  it.each([
    ['2026-03-01T12:34:56+00:00', '2026-03-01 12:34'],
    ['2026-03-01T12:34:56Z', '2026-03-01 12:34'],
    ['2026-03-01T12:34:56.789Z', '2026-03-01 12:34'],
    ['2026-03-01T09:34:56-03:00', '2026-03-01 12:34'],
    ['2026-03-01T22:30:00-03:00', '2026-03-02 01:30'],
    ['2026-03-01T12:34:56+0530', '2026-03-01 07:04'],
    ['2026-03-01T12:34:56', '2026-03-01 12:34'],
    ['2026-03-01 12:34', '2026-03-01 12:34'],
    ['2026-03-01', '2026-03-01'],
    ['not a date', 'not a date'],
    ['', ''],
  ])('%j → %j', (iso, shown) => {
    expect(formatDateTime(iso)).toBe(shown);
  });

  it('shows the reader\'s local time (TZ): the zone of the clock on their wall', ({ env }) => {
    env.TZ = 'America/Sao_Paulo';
    expect(formatDateTime('2026-03-01T12:34:56Z')).toBe('2026-03-01 09:34');
    env.TZ = 'UTC';
    expect(formatDateTime('2026-03-01T12:34:56Z')).toBe('2026-03-01 12:34');
    env.TZ = 'Asia/Tokyo';
    expect(formatDateTime('2026-03-01T20:00:00-03:00')).toBe('2026-03-02 08:00');
    // A day is a day in every zone, also when it comes as its UTC midnight.
    expect(formatDateTime('2026-03-01')).toBe('2026-03-01');
    env.TZ = 'America/Sao_Paulo';
    expect(formatDateTime('2026-03-01T00:00:00.000Z')).toBe('2026-03-01');
    expect(formatDateTime('2026-03-01T00:00:01Z')).toBe('2026-02-28 21:00');
  });
});

describe('colorStatus', () => {
  const chalk = new Chalk({ level: 1 });
  const GREEN = '\x1b[32m';
  const YELLOW = '\x1b[33m';
  const RED = '\x1b[31m';

  it.each([
    ['succeeded', GREEN],
    ['paid', GREEN],
    ['active', GREEN],
    ['pending', YELLOW],
    ['pre_authorized', YELLOW],
    ['new', YELLOW],
    ['over-due', YELLOW],
    ['suspended', YELLOW],
    ['failed', RED],
    ['canceled', RED],
    ['refunded', RED],
    ['reversed', RED],
    ['charged_back', RED],
    ['dispute', RED],
    ['expired', RED],
    ['SUCCEEDED', GREEN],
  ])('%s is coloured', (status, code) => {
    const out = colorStatus(status, chalk);
    expect(out.startsWith(code)).toBe(true);
    expect(out).toContain(status);
  });

  it.each(['partial_refunded', 'something', '', 'constructor', 'toString'])('leaves %j uncoloured', (status) => {
    expect(colorStatus(status, chalk)).toBe(status);
  });

  it('writes no escape codes with a level-0 chalk', () => {
    expect(colorStatus('failed', new Chalk({ level: 0 }))).toBe('failed');
  });
});

describe('kindForKey', () => {
  it.each([
    ['amount', 'money'],
    ['original_amount', 'money'],
    ['fees', 'money'],
    ['history.0.amount', 'money'],
    ['refunded_amount', 'money'],
    ['split.fixed_amount', 'money'],
    ['created_at', 'date'],
    ['payment_method.updated_at', 'date'],
    ['expected_on', 'date'],
    ['status', 'status'],
    ['history.1.status', 'status'],
    ['current_balance', 'money'],
    ['balance', 'money'],
    ['as_of', 'date'],
    ['due_date', 'date'],
    ['id', 'id'],
    ['uuid', 'id'],
    ['payment_method.id', 'id'],
    ['reference_id', 'id'],
    ['amounts', 'text'],
    ['status_code', 'text'],
    ['currency', 'text'],
  ])('%s → %s', (key, kind) => {
    expect(kindForKey(key)).toBe(kind);
  });
});
