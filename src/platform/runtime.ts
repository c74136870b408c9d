// Every way payctl tunes the V8 it runs on, in one place. The flags are set once, by the entry
// points (tuneRuntime: main.ts before a command's action and on the sandbox's thread, and the build
// step that saves undici's compiled code), never by a library module. Long runs (lists, exports,
// bulk batches, a generated sandbox) then pace the collector with what was set up here; the young
// generation's growth is stopped from here too, once it has grown. Each stays because a
// measurement showed it pays (the figures are beside each one; `npm run bench` measures start-up,
// exports and bulk).

import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let tuned = false;

/**
 * Tunes this process (and the thread it is called on) for a run of payctl: once, from an entry
 * point, before the run loads anything that the flags change. Help and --version are answered
 * without it, and never load node:v8.
 *
 * undici parses HTTP with a WebAssembly build of llhttp. V8 first compiles it with its baseline
 * compiler, then re-optimises it on background threads, and a process exit waits for those jobs.
 * A CLI makes a handful of requests, for which the baseline code is plenty, so the optimising tier
 * is switched off (WebAssembly only; payctl runs no other). Measured on `transactions list --limit 5`
 * against `sandbox serve`, 15 runs each: 220 ms and 70 MB with it, 300 ms and 106 MB without.
 * Set before any WebAssembly is compiled: undici's is the only WebAssembly payctl runs. The build
 * sets the same flags before it saves undici's compiled code, since V8 refuses a cache made under
 * other flags.
 *
 * `capYoungGeneration`, for the thread of a command that reads from the service: the young
 * generation stops growing once it has grown to a few megabytes (see capYoungGenerationOnceGrown).
 */
export function tuneRuntime(options: { capYoungGeneration?: boolean } = {}): void {
  if (tuned) return;
  tuned = true;
  setFlagsFromString('--liftoff-only');
  collect = exposeCollector();
  if (options.capYoungGeneration) capYoungGenerationOnceGrown();
}

// ---- Full garbage collections at a steady pace while a long list streams through a thread.
//
// Streaming a list holds a bounded amount of live data, yet each page leaves a little garbage in
// V8's old generation: answers and records that outlived two young-generation collections while
// the next page was on its way. V8 collects the old generation only once it has grown by a factor
// of its size after the last collection, and that factor grows with the heap, so a 100,000-item
// export ended 25–30 % bigger than a 10,000-item one while holding no more (measured on the
// embedded sandbox, whose server thread and command thread both stream). One full collection
// every few dozen pages keeps the peak where a short list leaves it, for a few per cent of time.
//
// The collector is reached through the --expose-gc flag, set by tuneRuntime rather than on the
// command line: a flag set at run time exposes `gc` to contexts created after it, and only to
// those, so the program's own globals never get it.

type Collect = (options?: { type: 'major'; execution: 'async' | 'sync' }) => void;

let collect: Collect | null = null;

function exposeCollector(): Collect | null {
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as Collect;
  } catch {
    // A runtime that refuses the flag keeps V8's own pace: memory grows, nothing breaks.
    return null;
  }
}

/** The collector, or null where the run was not tuned (tuneRuntime) or the runtime will not expose it. */
export function collector(): Collect | null {
  return collect;
}

/** Starts a full collection and returns at once (see GcPacer). */
export function startCollection(): void {
  collector()?.({ type: 'major', execution: 'async' });
}

/**
 * Counts pages; every `every`-th starts a full collection. It is started, not waited for
 * (`execution: 'async'`): V8 marks incrementally while the thread goes on, and on other cores.
 * A collection waited for (`sync`) was worse on both counts: measured on a 100,000-row export,
 * 186 MB instead of 149 MB, as V8 then sets its next limits from a heap it has just emptied.
 */
export class GcPacer {
  private pages = 0;
  constructor(
    private readonly every: number,
    private readonly collect: () => Collect | null = collector,
  ) {}

  page(): void {
    this.pages += 1;
    if (this.pages % this.every === 0) this.collect()?.({ type: 'major', execution: 'async' });
  }
}

// ---- The young generation's growth during a long run.
//
// A list allocates page after page of short-lived objects; left alone, V8 grows the young generation up to 16 MB a semi-space, and
// memory at 100,000 items was 1.2–1.4× memory at 10,000. Never letting it grow (1 MB) holds memory
// flat but collects thousands of times: a third of an export's time went to the collector.
// Between the two: let it grow to a few megabytes, then stop it there. Measured on 100,000
// transactions from `sandbox serve`: 4.06 s at 1 MB, 3.43 s at 4 MB, and memory at 100,000 items
// within 1.1× of memory at 10,000. A bulk refund alike: held at 1 MB, a tenth of a batch's time
// went to the collector; left alone, memory grew with the batch.

/** Both semi-spaces and the space they swap with: 4 MB semi-spaces. */
const YOUNG_GENERATION_CAP = 8 * 1024 * 1024;

/**
 * Stops the young generation's growth once it has reached the cap, for the rest of the run: the
 * collector's own reports (a 'gc' performance entry after each collection) say when to look, so no
 * loop has to. V8 reads the growth factor when it grows the space, so setting it late takes effect;
 * set before, it would hold the space at its starting 1 MB. The setting is process-wide (the
 * embedded sandbox's thread grows no further either), so only the command's thread watches, and
 * only for a command that reads from the service (main.ts): a run that never grows its young
 * generation that far (most commands) never sets it.
 */
function capYoungGenerationOnceGrown(): void {
  const watch = new PerformanceObserver(() => {
    const space = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    if (space && space.space_size < YOUNG_GENERATION_CAP) return;
    setFlagsFromString('--semi-space-growth-factor=1');
    watch.disconnect();
  });
  watch.observe({ entryTypes: ['gc'] });
}
