// One bound on everything a command reads page by page or item by item: every list (--all,
// --group-by, exports), reconcile, transfers explain. A service whose list says there is more
// forever, with new items each time, passes every check of a single page (none repeats, none is
// empty); unbounded, `reconcile` against one printed nothing for two minutes while it grew past
// 279 MB. So a command's reads together stop, with exit 8 naming why and what was read, once past
// any of: so many items, so many pages, so long, or so much memory held.
import { getHeapStatistics } from 'node:v8';
import { NetworkError } from '../errors.js';
import { formatMb } from './answer-limits.js';
import { counted, formatCount } from '../platform/plural.js';
import { collector } from '../platform/runtime.js';

/**
 * Pages are bounded at a tenth of the items: a real list's pages hold 100 items (the provider's
 * largest), or tens where a service caps them lower. A list of one item a page is read no further
 * than a tenth of the way.
 */
const ITEMS_PER_PAGE_AT_LEAST = 10;
/**
 * The longest one command reads. A real month through a slow service takes hours, not a day:
 * reconcile's lookups for a million receivables paid (each receivable and its sale, 32 at a time,
 * 200 ms each) take about three and a half. A list that has not ended after a day has no end.
 */
const MAX_READ_MS = 24 * 60 * 60 * 1000;
/**
 * Memory held, as a share of the JavaScript heap's limit (V8's heap_size_limit: Node.js's
 * --max-old-space-size plus 48 MB for the young generation; about 4 GB on a 64-bit machine with
 * room, so 1 GB held). V8 gives up (an out-of-memory abort) well before its old generation is
 * full of what is held: with --max-old-space-size=64, reconcile against an endless list aborted
 * holding 52 MB. A quarter of the limit stops cleanly, with exit 8, however the limit is set.
 * Streaming lists hold a few megabytes whatever their length; what grows is what a command keeps:
 * reconcile a line a transfer and the id of each receivable paid (about 300 bytes a transfer
 * without receivables: 426,100 held 124 MB).
 */
const HELD_SHARE_OF_HEAP_LIMIT = 0.25;
/** Pages (or items read one by one, in hundreds) between two full collections forced to measure what is held. */
const PAGES_BETWEEN_MEASURES = 50;

export interface ReadLimits {
  items: number;
  pages: number;
  ms: number;
  heldBytes: number;
}

/** The bound of `items` (PAYCTL_MAX_LIST_ITEMS, see answer-limits.ts), with the rest from it and from the runtime. */
export function readLimitsOf(items: number): ReadLimits {
  return {
    items,
    pages: Math.ceil(items / ITEMS_PER_PAGE_AT_LEAST),
    ms: MAX_READ_MS,
    heldBytes: Math.floor(getHeapStatistics().heap_size_limit * HELD_SHARE_OF_HEAP_LIMIT),
  };
}

export type ReadBoundCause = 'items' | 'pages' | 'time' | 'memory';

/** A command's reads went past the bound: exit 8, naming which part of it and what was read. */
export class ReadBoundError extends NetworkError {
  readonly bound: ReadBoundCause;
  constructor(bound: ReadBoundCause, message: string) {
    super(message);
    this.bound = bound;
  }
}

/** What a command has read, counted against its bound. One per ApiClient, which is one per command. */
export class ReadBound {
  private items = 0;
  private pages = 0;
  private started: number | undefined;
  private last = '';
  private sinceMeasured = 0;

  constructor(readonly limits: ReadLimits) {}

  /**
   * Counts `items` read from `source` ("GET https://…/v1/transfers") in `pages` pages (0 for items
   * read one by one), and throws ReadBoundError once the command's reads are past the bound. The
   * clock starts with the first thing counted.
   */
  count(source: string, items: number, pages = 1): void {
    this.started ??= Date.now();
    this.last = source;
    if (this.items + items > this.limits.items) {
      throw this.stop('items', `the reads went past ${formatCount(this.limits.items)} items, the most one command reads (PAYCTL_MAX_LIST_ITEMS): a list with no end, or one longer than that`);
    }
    if (this.pages + pages > this.limits.pages) {
      throw this.stop('pages', `the reads went past ${formatCount(this.limits.pages)} pages, the most one command reads (a page for every ${ITEMS_PER_PAGE_AT_LEAST} items of PAYCTL_MAX_LIST_ITEMS): a list with no end, in short pages`);
    }
    this.items += items;
    this.pages += pages;
    if (pages > 0) this.check(pages);
  }

  /** "stopped after 20.000 items in 200 pages (3.1 s)", or "stopped with nothing read": what a stopped read says it got. */
  stoppedAfter(): string {
    if (this.items === 0) return 'stopped with nothing read';
    const pages = this.pages === 0 ? '' : ` in ${counted(this.pages, 'page')}`;
    return `stopped after ${counted(this.items, 'item')}${pages} (${formatDuration(this.elapsed())})`;
  }

  /**
   * Time and memory, checked with every page counted; a read of items one by one (counted all at
   * once, before they are read) calls it for each, with the weight of a hundredth of a page.
   */
  check(weight = 1 / 100): void {
    if (this.elapsed() > this.limits.ms) {
      throw this.stop('time', `the reads were still going after ${formatDuration(this.limits.ms)}, the longest one command reads: a list with no end, or a service too slow to read it in that time`);
    }
    this.sinceMeasured += weight;
    if (heapHeld() <= this.limits.heldBytes) return;
    // The heap's use includes garbage not yet collected: what the command holds is measured after
    // a full collection, forced at most once every so many pages.
    if (this.sinceMeasured < PAGES_BETWEEN_MEASURES) return;
    this.sinceMeasured = 0;
    collector()?.({ type: 'major', execution: 'sync' });
    const held = heapHeld();
    if (held <= this.limits.heldBytes) return;
    throw this.stop(
      'memory',
      `payctl held ${formatMb(held)} MB of what it read, past the ${formatMb(this.limits.heldBytes)} MB it holds for one command (a quarter of Node.js's heap limit, set by NODE_OPTIONS=--max-old-space-size=<MB>): a list too large to hold, or one with no end`,
    );
  }

  private elapsed(): number {
    return this.started === undefined ? 0 : Date.now() - this.started;
  }

  private stop(bound: ReadBoundCause, why: string): ReadBoundError {
    return new ReadBoundError(bound, `the service's lists did not end within payctl's bound: ${why}; ${this.stoppedAfter()}, the last from ${this.last}; the result is incomplete`);
  }
}

function heapHeld(): number {
  return getHeapStatistics().used_heap_size;
}

/** "40 ms", "1.4 s", "12 s", "3 min 20 s", "24 h": a duration as a person would read it. */
function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 10_000) return `${Math.round(ms / 100) / 10} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 === 0 ? `${minutes} min` : `${minutes} min ${seconds % 60} s`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}
