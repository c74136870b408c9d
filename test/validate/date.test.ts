import { describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { dayAt, dayOrInstantAt, dayStartSeconds, instantAt, nextDay, parseDate, parseDateTime } from '../../src/validate/date.js';
import { expectValidationError } from './helpers.js';

describe('parseDate', () => {
  it.each(['2026-01-01', '2026-12-31', '2024-02-29', '2000-02-29', '2026-04-30', '1990-07-15'])('accepts %s', (date) => {
    expect(parseDate(date, '--from')).toBe(date);
  });

  it('trims surrounding blanks', () => {
    expect(parseDate(' 2026-03-01 ', '--from')).toBe('2026-03-01');
  });

  it.each([
    ['2026-02-30', /days 01 to 28/],
    ['2026-02-29', /days 01 to 28/],
    ['2023-02-29', /not a real date/],
    ['1900-02-29', /not a real date/],
    ['2100-02-29', /not a real date/],
    ['2026-04-31', /days 01 to 30/],
    ['2026-13-01', /no month 13/],
    ['2026-00-10', /no month 0/],
    ['2026-01-00', /not a real date/],
    ['2026-01-32', /not a real date/],
    ['0000-01-01', /0001 or later/],
    ['26-1-1', /use YYYY-MM-DD/],
    ['2026-1-01', /use YYYY-MM-DD/],
    ['2026/01/01', /use YYYY-MM-DD/],
    ['01-01-2026', /use YYYY-MM-DD/],
    ['2026-01-01T00:00:00Z', /use YYYY-MM-DD/],
    ['', /use YYYY-MM-DD/],
  ])('rejects %j', (input, message) => {
    expectValidationError(() => parseDate(input, '--due-date'), '--due-date', message);
  });
});

describe('parseDateTime', () => {
  it.each([
    ['2026-03-31T18:00:00-03:00', '2026-03-31T21:00:00.000Z'],
    ['2026-03-31T18:00-03:00', '2026-03-31T21:00:00.000Z'],
    ['2026-03-31T18:00:00Z', '2026-03-31T18:00:00.000Z'],
    ['2026-03-31 18:00:00Z', '2026-03-31T18:00:00.000Z'],
    ['2026-03-31T18:00:00.5+00:00', '2026-03-31T18:00:00.500Z'],
    ['2026-03-31T18:00:00.123456Z', '2026-03-31T18:00:00.123Z'],
    ['2026-03-31T23:30:00+0530', '2026-03-31T18:00:00.000Z'],
    ['2026-03-31T02:00:00+02', '2026-03-31T00:00:00.000Z'],
    ['2026-12-31T22:00:00-03:00', '2027-01-01T01:00:00.000Z'],
    ['2024-02-29T12:00:00Z', '2024-02-29T12:00:00.000Z'],
  ])('%s → %s', (input, iso) => {
    expect(parseDateTime(input, '--pix-expires-at')).toBe(iso);
  });

  it('reads a time without offset as local time', () => {
    expect(parseDateTime('2026-03-31T18:00', '--at')).toBe(new Date(2026, 2, 31, 18, 0, 0).toISOString());
  });

  it.each([
    ['2026-03-31', /a time is needed too/],
    ['2026-02-30T10:00:00Z', /not a real date/],
    ['2023-02-29T10:00:00Z', /not a real date/],
    ['2026-03-31T24:00:00Z', /not a real time/],
    ['2026-03-31T10:60:00Z', /not a real time/],
    ['2026-03-31T10:00:60Z', /not a real time/],
    ['2026-03-31T10:00:00+15:00', /impossible UTC offset/],
    ['2026-03-31T10:00:00+03:75', /impossible UTC offset/],
    ['tomorrow', /not a date and time/],
    ['2026-03-31T1:00Z', /not a date and time/],
    ['', /not a date and time/],
  ])('rejects %j', (input, message) => {
    expectValidationError(() => parseDateTime(input, '--pix-expires-at'), '--pix-expires-at', message);
  });
});

// The sandbox reads the fields it is sent with the same grammar and calendar as the flags above.
describe('dayAt and instantAt: the dates a service is sent', () => {
  it('dayAt is the UTC midnight of a real day, as written', () => {
    expect(dayAt('2024-02-29')?.toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(dayAt('0050-03-01')?.toISOString()).toBe('0050-03-01T00:00:00.000Z');
    for (const wrong of ['2026-02-29', '2026-13-01', '0000-01-01', ' 2026-03-01', '2026-03-01T00:00:00Z', '26-1-1']) expect(dayAt(wrong)).toBeUndefined();
  });

  it('instantAt reads a date-time with its offset, and refuses one without: which instant it is would depend on the machine', () => {
    expect(instantAt('2026-03-31T18:00:00-03:00')?.toISOString()).toBe('2026-03-31T21:00:00.000Z');
    expect(instantAt('2030-12-31 00:00:00+00:00')?.toISOString()).toBe('2030-12-31T00:00:00.000Z');
    for (const wrong of ['2026-03-31T18:00', '2026-03-31T24:00:00Z', '2026-02-30T10:00:00Z', '2026-03-31T10:00:00+15:00', '2026-03-31']) expect(instantAt(wrong)).toBeUndefined();
  });

  it('dayOrInstantAt takes either', () => {
    expect(dayOrInstantAt('2026-03-31')?.toISOString()).toBe('2026-03-31T00:00:00.000Z');
    expect(dayOrInstantAt('2026-03-31T23:00:00-03:00')?.toISOString()).toBe('2026-04-01T02:00:00.000Z');
    expect(dayOrInstantAt('2026-03-31T23:00')).toBeUndefined();
  });
});

// The zone is process.env.TZ, which the env fixture puts back after each test.
describe('dayStartSeconds', () => {
  it.for([
    ['1970-01-01', 0],
    ['2026-01-01', 1_767_225_600],
    ['2024-02-29', 1_709_164_800],
  ] as const)('utc: %s → %i, whatever the zone', ([date, seconds], { env }) => {
    env.TZ = 'America/Sao_Paulo';
    expect(dayStartSeconds(date, 'utc')).toBe(seconds);
  });

  it("local: 00:00 in the zone payctl shows, São Paulo's three hours after UTC's", ({ env }) => {
    env.TZ = 'America/Sao_Paulo';
    expect(dayStartSeconds('2026-12-01', 'local')).toBe(Date.parse('2026-12-01T03:00:00Z') / 1000);
    // Before 2019 São Paulo kept summer time: 2018-12-01 began at 02:00 UTC.
    expect(dayStartSeconds('2018-12-01', 'local')).toBe(Date.parse('2018-12-01T02:00:00Z') / 1000);
    env.TZ = 'UTC';
    expect(dayStartSeconds('2026-12-01', 'local')).toBe(Date.parse('2026-12-01T00:00:00Z') / 1000);
    env.TZ = 'Asia/Tokyo';
    expect(dayStartSeconds('2026-12-01', 'local')).toBe(Date.parse('2026-11-30T15:00:00Z') / 1000);
  });

  it('a day and the next: 24 hours apart, 23 or 25 where the clocks change', ({ env }) => {
    env.TZ = 'America/Sao_Paulo';
    expect(dayStartSeconds(nextDay('2026-03-08'), 'local') - dayStartSeconds('2026-03-08', 'local')).toBe(86_400);
    env.TZ = 'Europe/Berlin';
    expect(dayStartSeconds(nextDay('2026-03-29'), 'local') - dayStartSeconds('2026-03-29', 'local')).toBe(23 * 3600);
  });

  it('nextDay crosses months and leap days', () => {
    expect(nextDay('2024-02-28')).toBe('2024-02-29');
    expect(nextDay('2024-02-29')).toBe('2024-03-01');
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
  });

  it.each(['2026-02-30', '2026-1-1', 'x'])('refuses %j', (date) => {
    expect(() => dayStartSeconds(date, 'local')).toThrow(RangeError);
  });
});
