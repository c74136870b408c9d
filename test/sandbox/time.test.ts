import { describe, expect, it } from 'vitest';
import { isoOfMs, isoTimestamp } from '../../src/sandbox/time.js';

// The sandbox writes instants without making a Date for each; they must read exactly as
// toISOString writes them, the edges of days, years and the supported range included.

describe('isoOfMs', () => {
  it('writes every instant as toISOString does', () => {
    const samples = [0, 1, 999, 86_399_999, 86_400_000, Date.UTC(2024, 1, 29, 23, 59, 59, 999), Date.UTC(2026, 10, 25, 3, 0, 0, 7), 253_402_300_799_999];
    let seed = 12345;
    for (let i = 0; i < 2000; i += 1) {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      samples.push(Math.floor((seed / 2 ** 31) * 4_102_444_800_000));
    }
    for (const ms of samples) expect(isoOfMs(ms)).toBe(new Date(ms).toISOString());
  });

  it('leaves instants outside 1970 to 9999 to toISOString', () => {
    for (const ms of [-1, -86_400_001, 253_402_300_800_000, 8.64e15]) expect(isoOfMs(ms)).toBe(new Date(ms).toISOString());
    expect(isoTimestamp(new Date('2030-01-01T00:00:00.000Z'))).toBe('2030-01-01T00:00:00.000Z');
    expect(() => isoTimestamp(new Date(Number.NaN))).toThrow(RangeError);
  });
});
