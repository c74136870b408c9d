import { describe, expect, it } from 'vitest';
import { isoOfMs, isoTimestamp, msOfIso } from '../../src/sandbox/time.js';

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
    for (const ms of samples) expect(msOfIso(isoOfMs(ms))).toBe(ms);
  });

  it('reads back only what it writes', () => {
    for (const text of ['2026-02-29T00:00:00.000Z', '2026-04-31T00:00:00.000Z', '2026-13-01T00:00:00.000Z', '2026-00-10T00:00:00.000Z', '2026-01-01T24:00:00.000Z', '2026-01-01T00:60:00.000Z', '2026-01-01T00:00:60.000Z', '2026-01-01T00:00:00Z', '2026-01-01 00:00:00.000Z', '2026-01-01T00:00:00.000+', '+02026-01-01T00:00:00.000', '1969-12-31T23:59:59.999Z', '2026-1a-01T00:00:00.000Z']) {
      expect(msOfIso(text)).toBeNaN();
    }
    expect(msOfIso('2024-02-29T23:59:59.999Z')).toBe(Date.UTC(2024, 1, 29, 23, 59, 59, 999));
    expect(msOfIso('2000-02-29T00:00:00.000Z')).toBe(Date.UTC(2000, 1, 29));
    expect(msOfIso('2100-02-29T00:00:00.000Z')).toBeNaN();
  });

  it('leaves instants outside 1970 to 9999 to toISOString', () => {
    for (const ms of [-1, -86_400_001, 253_402_300_800_000, 8.64e15]) expect(isoOfMs(ms)).toBe(new Date(ms).toISOString());
    expect(isoTimestamp(new Date('2030-01-01T00:00:00.000Z'))).toBe('2030-01-01T00:00:00.000Z');
    expect(() => isoTimestamp(new Date(Number.NaN))).toThrow(RangeError);
  });
});
