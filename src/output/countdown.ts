// A wait a person should see the end of: "waiting for the refund of … to show: 1:23 left". On a
// terminal a line redrawn every second (stepping aside for anything else written, like the
// progress bars); elsewhere one line saying how long it may take.
import { clockTime, span } from '../ledger/time.js';
import { showStatusLine } from './status-line.js';

const CLEAR = '\r\x1b[2K';

export function countdown(stderr: NodeJS.WritableStream, onTerminal: boolean, warn: (line: string) => void, what: string, until: number): () => void {
  if (!onTerminal) {
    warn(`${what} (up to ${Math.max(0, Math.ceil((until - Date.now()) / 1000))} s, until ${clockTime(until)})…`);
    return () => undefined;
  }
  let drawn = false;
  const draw = () => {
    stderr.write(`${CLEAR}${what}: ${span(until - Date.now())} left (Ctrl-C stops; nothing more is sent)`);
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
