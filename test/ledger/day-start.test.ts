import { describe, expect, it } from 'vitest';
import { dayStartIn, nextDayStartIn } from '../../src/time/zone.js';

// Where a daily limit's day begins and ends: 00:00 in the account's zone, whatever the process's
// own, and on a day the clocks change too.
const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe('a day in a named zone', () => {
  it('São Paulo: 02:30 UTC is still the day before there, which began at 03:00 UTC', () => {
    expect(iso(dayStartIn(at('2026-11-28T02:30:00Z'), 'America/Sao_Paulo'))).toBe('2026-11-27T03:00:00.000Z');
    expect(iso(nextDayStartIn(at('2026-11-28T02:30:00Z'), 'America/Sao_Paulo'))).toBe('2026-11-28T03:00:00.000Z');
    expect(iso(dayStartIn(at('2026-11-28T03:00:00Z'), 'America/Sao_Paulo'))).toBe('2026-11-28T03:00:00.000Z');
  });

  it('UTC, and a day the clocks go forward (Berlin, 2026-03-29: 23 hours long)', () => {
    expect(iso(dayStartIn(at('2026-11-28T23:59:59Z'), 'UTC'))).toBe('2026-11-28T00:00:00.000Z');
    expect(iso(dayStartIn(at('2026-03-29T12:00:00Z'), 'Europe/Berlin'))).toBe('2026-03-28T23:00:00.000Z');
    expect(iso(nextDayStartIn(at('2026-03-29T12:00:00Z'), 'Europe/Berlin'))).toBe('2026-03-29T22:00:00.000Z');
  });
});
