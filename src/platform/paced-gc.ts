// Full garbage collections at a steady pace while a long list streams through a thread.
//
// Streaming a list holds a bounded amount of live data, yet each page leaves a little garbage in
// V8's old generation: answers and records that outlived two young-generation collections while
// the next page was on its way. V8 collects the old generation only once it has grown by a factor
// of its size after the last collection, and that factor grows with the heap, so a 100,000-item
// export ended 25–30 % bigger than a 10,000-item one while holding no more (measured on the
// embedded sandbox, whose server thread and command thread both stream). One full collection
// every few dozen pages keeps the peak where a short list leaves it, for a few per cent of time.
//
// The collector is reached through the --expose-gc flag, set here rather than on the command
// line: a flag set at run time exposes `gc` to contexts created after it, and only to those.

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Collect = (options?: { type: 'major'; execution: 'async' | 'sync' }) => void;

let collect: Collect | null | undefined;

/** The collector, or null where the runtime will not expose it. */
export function collector(): Collect | null {
  if (collect === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      collect = runInNewContext('gc') as Collect;
    } catch {
      // A runtime that refuses the flag keeps V8's own pace: memory grows, nothing breaks.
      collect = null;
    }
  }
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
