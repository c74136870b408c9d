// Long lists keep memory flat by starting a full garbage collection every so many pages, on the
// command's side (the client reading pages) and on the sandbox's (serving them). The effect on
// peak memory is measured by `npm run bench`; these check that the pacing is wired and reachable.
import { afterEach, describe, expect, vi } from 'vitest';
import { it } from '../helpers/fixtures.js';
import { collector, GcPacer, tuneRuntime } from '../../src/platform/runtime.js';
import { run } from '../commands/helpers.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('paced garbage collection', () => {
  it('starts a collection every `every` pages, without waiting for it', () => {
    const calls: unknown[] = [];
    const pacer = new GcPacer(3, () => (options) => calls.push(options));
    for (let i = 0; i < 10; i += 1) pacer.page();
    expect(calls).toEqual([
      { type: 'major', execution: 'async' },
      { type: 'major', execution: 'async' },
      { type: 'major', execution: 'async' },
    ]);
  });

  it('reaches the collector on this runtime once an entry point has tuned it, without exposing gc to the program', () => {
    tuneRuntime();
    const collect = collector();
    expect(typeof collect).toBe('function');
    expect(() => collect?.({ type: 'major', execution: 'async' })).not.toThrow();
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });

  it('paces every page a list reads and the sandbox serves', async ({ home }) => {
    expect((await run(home, ['sandbox', 'generate', '--sales', '250', '--days', '1', '-q', '-o', 'json'])).code).toBe(0);
    const paced = vi.spyOn(GcPacer.prototype, 'page');
    const listed = await run(home, ['transactions', 'list', '--all', '-o', 'ndjson']);
    expect(listed.code).toBe(0);
    const rows = listed.stdout.trim().split('\n').length;
    expect(rows).toBe(250);
    // Two pacers, one per side: the client's paced the three pages of 100 it handed over; the
    // sandbox's (in-process here) every page it served, those asked ahead included.
    const calls = new Map<GcPacer, number>();
    for (const pacer of paced.mock.contexts as GcPacer[]) calls.set(pacer, (calls.get(pacer) ?? 0) + 1);
    const counts = [...calls.values()].sort();
    expect(counts).toHaveLength(2);
    expect(counts[0]).toBe(3);
    expect(counts[1]).toBeGreaterThanOrEqual(3);
  });
});
