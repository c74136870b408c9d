// A wait a person should see the end of: "1:23 left: waiting for the refund of … to show". On a
// terminal a line redrawn every second, cut to the terminal's width (a line that wrapped could
// not be redrawn in place) and stepping aside for anything else written, like the progress bars;
// elsewhere one line saying how long it may take.
import { span } from '../time/span.js';
import { localDateTime } from '../time/zone.js';
import { showStatusLine } from './status-line.js';

const CLEAR = '\r\x1b[2K';

export function countdown(stderr: NodeJS.WritableStream, onTerminal: boolean, warn: (line: string) => void, what: string, until: number): () => void {
  if (!onTerminal) {
    const seconds = Math.max(0, Math.ceil((until - Date.now()) / 1000));
    // A long wait (a request for approval waits up to a day) in hours and minutes: 23:59:58.
    warn(`${what} (up to ${seconds > 600 ? span(until - Date.now()) : `${seconds} s`}, until ${localDateTime(until)})…`);
    return () => undefined;
  }
  let drawn = false;
  const draw = () => {
    const width = Math.max(20, ((stderr as { columns?: number }).columns ?? 80) - 1);
    const line = `${span(until - Date.now())} left: ${what} (Ctrl-C stops; nothing more is sent)`;
    stderr.write(`${CLEAR}${line.length > width ? `${line.slice(0, width - 1)}…` : line}`);
    drawn = true;
  };
  const remove = showStatusLine({
    clear: () => {
      if (drawn) stderr.write(CLEAR);
      drawn = false;
    },
  });
  draw();
  const timer = setInterval(draw, 1000);
  timer.unref();
  return () => {
    clearInterval(timer);
    remove();
    if (drawn) stderr.write(CLEAR);
  };
}
