// V8's young generation stops growing once it has grown to 4 MB semi-spaces (platform/runtime.ts):
// the command's entry point asks for it when it tunes the runtime, and the collector's own reports
// say when, so no list, export or bulk loop checks it. Left alone, a run that keeps allocating page
// after page grows it to 16 MB semi-spaces, and a long list's peak memory with it. Each test file
// runs in a process of its own, so the process-wide flag this sets stays here.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { getHeapSpaceStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { tuneRuntime } from '../../src/platform/runtime.js';

const MB = 1024 * 1024;

function youngGenerationBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}

describe("the young generation's growth", () => {
  it('stops at the cap once grown, set up by tuneRuntime alone, while a run allocates page after page', async () => {
    // Room to grow past the cap, or this would show nothing (the test runner's own work may have
    // grown it to the cap already).
    expect(youngGenerationBytes()).toBeLessThanOrEqual(8 * MB);
    tuneRuntime({ capYoungGeneration: true });
    // Pages of short-lived objects, some of which outlive a collection or two (as a page waiting
    // to be written does), with a turn of the event loop after each, as a list has.
    let held: Array<{ n: number; text: string }> = [];
    let largest = 0;
    for (let page = 0; page < 150; page += 1) {
      for (let n = 0; n < 20_000; n += 1) {
        held.push({ n, text: `item ${n} of page ${page}` });
        if (held.length > 30_000) held = [];
      }
      await nextTurn();
      largest = Math.max(largest, youngGenerationBytes());
    }
    // Grown to the cap (8 MB: two 4 MB semi-spaces), and at most one step of growth past it
    // before the report of the collection that reached it arrived; never V8's own 32 MB.
    expect(largest).toBeGreaterThanOrEqual(8 * MB);
    expect(largest).toBeLessThanOrEqual(16 * MB);
  });
});
