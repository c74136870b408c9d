// Progress of a long `--all` listing, on stderr, for a person watching a terminal: items fetched
// (of the total the API announced), pages, rate and time left. Loaded only when it is shown, so a
// piped or quiet run never pays for cli-progress.
import cliProgress from 'cli-progress';
import { counted, formatCount, noun, singular } from '../platform/plural.js';
import { showStatusLine } from './status-line.js';

export interface PageProgress {
  /** A page arrived: `items` on it, `total` as the list envelope announced it (when it did). */
  page(items: number, total: number | undefined): void;
  /** Removes the bar, leaving the terminal as it was; safe to call twice. */
  stop(): void;
}

/**
 * A cli-progress bar that shares the terminal with result lines.
 *
 * cli-progress assumes it has the screen to itself: it saves the cursor when it starts and
 * restores it when it stops (after a thousand rows that is a position far up the screen, and what
 * follows overwrites the rows), and it turns the terminal's line wrapping off while it runs (rows
 * longer than the terminal were cut). Here the cursor is never saved or restored, wrapping is left
 * alone, and the bar's own line is cut to the terminal's width instead, so it never wraps.
 *
 * Result lines get through without the bar in them (see status-line.ts): before one is written,
 * the bar's line is cleared, and cli-progress, which redraws only a changed line, is told its line
 * is gone, so it draws the bar again under them at its next tick.
 */
function sharedBar(stream: NodeJS.WritableStream, format: string, etaBuffer: number): { bar: cliProgress.SingleBar; release: () => void } {
  const formatter = cliProgress.Format.Formatter;
  const bar = new cliProgress.SingleBar(
    {
      stream: stream as NodeJS.WriteStream,
      format: (options, params, payload) => formatter({ ...options, format }, params, payload).slice(0, Math.max(0, params.maxWidth - 1)),
      barsize: 24,
      clearOnComplete: true,
      hideCursor: false,
      linewrap: true,
      // Redraws at most 10 times a second, however fast the work goes.
      fps: 10,
      etaBuffer,
    },
    cliProgress.Presets.shades_classic,
  );
  const terminal = (bar as unknown as { terminal: { cursorSave(): void; cursorRestore(): void } }).terminal;
  terminal.cursorSave = () => {};
  terminal.cursorRestore = () => {};
  const release = showStatusLine({
    clear() {
      stream.write('\r\x1b[2K');
      (bar as unknown as { lastDrawnString: string | null }).lastDrawnString = '';
    },
  });
  return { bar, release };
}

/** Shown only once a listing has taken this long: a short one should not flash a bar. */
const SHOW_AFTER_MS = 400;

export function pageProgress(stream: NodeJS.WritableStream, plural: string): PageProgress {
  const started = Date.now();
  let bar: cliProgress.SingleBar | undefined;
  let fetched = 0;
  let pages = 0;
  let stopped = false;
  let hide: (() => void) | undefined;
  // The rate counts from the first page: the wait for it (a service warming up) is not throughput.
  let firstPageAt: number | undefined;
  let firstPageItems = 0;
  const payload = (total: number) => {
    const seconds = firstPageAt === undefined ? 0 : (Date.now() - firstPageAt) / 1000;
    const rate = seconds > 0 ? Math.round((fetched - firstPageItems) / seconds) : 0;
    return { pages: counted(pages, 'page'), rate: formatCount(rate), noun: noun(total, singular(plural), plural) };
  };
  return {
    page(items, total) {
      if (stopped) return;
      fetched += items;
      pages += 1;
      if (firstPageAt === undefined) {
        firstPageAt = Date.now();
        firstPageItems = items;
      }
      const known = total !== undefined && Number.isFinite(total) && total >= fetched ? total : fetched;
      if (!bar) {
        if (Date.now() - started < SHOW_AFTER_MS) return;
        const shared = sharedBar(stream, '{bar} {value}/{total} {noun} | {pages} | {rate}/s | ETA {eta_formatted}', 50);
        bar = shared.bar;
        hide = shared.release;
        bar.start(known, fetched, payload(known));
        return;
      }
      bar.setTotal(known);
      bar.update(fetched, payload(known));
    },
    stop() {
      if (stopped) return;
      stopped = true;
      hide?.();
      bar?.stop();
    },
  };
}

/**
 * Progress of work that reads one list after another (reconcile: the period's transfers, then the
 * receivables paid out): a bar for each, the next taking the place of the one before.
 */
export function stepProgress(stream: NodeJS.WritableStream): { page(plural: string, items: number, total: number | undefined): void; stop(): void } {
  let current: { plural: string; bar: PageProgress } | undefined;
  return {
    page(plural, items, total) {
      if (current?.plural !== plural) {
        current?.bar.stop();
        current = { plural, bar: pageProgress(stream, plural) };
      }
      current.bar.page(items, total);
    },
    stop() {
      current?.bar.stop();
    },
  };
}

export interface BatchProgress {
  update(done: number, failed: number): void;
  stop(): void;
}

/** Progress of a batch (bulk refunds): done, failed and remaining rows, rate and time left. */
export function batchProgress(stream: NodeJS.WritableStream, total: number): BatchProgress {
  const started = Date.now();
  const { bar, release: hide } = sharedBar(stream, '{bar} {done} done | {failed} failed | {remaining} left | {rate}/s | ETA {eta_formatted}', 100);
  bar.start(total, 0, { done: 0, failed: 0, remaining: total, rate: '0' });
  let stopped = false;
  return {
    update(done, failed) {
      const finished = done + failed;
      const seconds = (Date.now() - started) / 1000;
      bar.update(finished, { done, failed, remaining: total - finished, rate: seconds > 0 ? formatCount(Math.round(finished / seconds)) : '0' });
    },
    stop() {
      if (stopped) return;
      stopped = true;
      hide();
      bar.stop();
    },
  };
}
