// A progress bar on stderr and the results on stdout share one screen when both are the terminal.
// The bar is redrawn in place (carriage return, no newline), so a result line written while it is
// up would start at the bar's end ("ETA 1s9ca6609f…  succeeded"). Whoever writes a line to either
// stream first asks the bar to step aside: it clears its line, and the bar draws itself again, under
// what was written, at its next tick. No import with side effects: writeOut loads this on every run.

export interface StatusLine {
  /** Clears the bar's line on its stream; it is drawn again at its next redraw. */
  clear(): void;
}

let shown: StatusLine | undefined;

/** Registers the bar that is up; returns its removal. One bar at a time. */
export function showStatusLine(line: StatusLine): () => void {
  shown = line;
  return () => {
    if (shown === line) shown = undefined;
  };
}

/**
 * Call before writing a line to `out` while a bar may be up. Only a terminal shares the bar's
 * screen: a page written to a pipe leaves the bar where it is.
 */
export function clearStatusLine(out?: NodeJS.WritableStream): void {
  if (!shown) return;
  if (out && (out as { isTTY?: boolean }).isTTY !== true) return;
  shown.clear();
}
