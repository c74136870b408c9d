// The export's lookback window: the records a run read, kept compactly for the state file.
import { describe, expect, it } from 'vitest';
import { Window } from '../../src/commands/export/window.js';

const hexId = (i: number) => i.toString(16).padStart(32, '0');
const at = (i: number) => Date.UTC(2026, 10, 1) + i * 60_000;

describe('export Window', () => {
  it('gives back every id as it was read: the provider 32-hex ones and any other', () => {
    const window = new Window();
    const ids = [hexId(1), 'ABCDEF0123456789ABCDEF0123456789', 'tr_123', 'pedido-ção-7', hexId(2)];
    ids.forEach((id, i) => expect(window.add(id, at(i), i + 1)).toBe(true));
    expect([...window.entries()]).toEqual(ids.map((id, i) => [id, new Date(at(i)).toISOString(), (i + 1).toString(36)]));
  });

  it('refuses an id too long to keep', () => {
    expect(new Window().add('x'.repeat(65), at(0), 1)).toBe(false);
  });

  it('keeps order and ids across growing, forgetting and moving its arrays', () => {
    const window = new Window();
    const id = (i: number) => (i % 7 === 0 ? `other-${i}` : hexId(i));
    for (let i = 0; i < 3000; i += 1) {
      window.add(id(i), at(i), i);
      // A window of the last 500 records, as a lookback would keep.
      window.forgetOlderThan(at(i - 499));
    }
    const entries = [...window.entries()];
    expect(entries).toHaveLength(500);
    expect(entries.map(([kept]) => kept)).toEqual(Array.from({ length: 500 }, (_, k) => id(2500 + k)));
    expect(entries.at(-1)).toEqual([id(2999), new Date(at(2999)).toISOString(), (2999).toString(36)]);
  });
});
