import { clearStatusLine } from './status-line.js';

/**
 * Writes one chunk and, when the stream says its buffer is full (a slow pipe such as `| less`),
 * waits until it has been flushed before the next page is fetched. That is what keeps memory flat
 * for `--all`: pages are pulled only as fast as the reader takes them. A write to a closed pipe
 * rejects (EPIPE / ERR_STREAM_DESTROYED), which stops the paging.
 */
export function writeOut(out: NodeJS.WritableStream, chunk: string | Uint8Array): Promise<void> {
  if (chunk.length === 0) return Promise.resolve();
  clearStatusLine(out);
  return new Promise<void>((resolve, reject) => {
    let waiting = false;
    let settled = false;
    let flushed: { err: Error | null | undefined } | undefined;
    const settle = (err?: Error | null): void => {
      if (settled) return;
      settled = true;
      out.removeListener('drain', onDrain);
      if (err) reject(err);
      else resolve();
    };
    const onDrain = (): void => settle();
    const ok = out.write(chunk, (err) => {
      flushed = { err };
      if (waiting || err) settle(err);
    });
    if (flushed?.err) return settle(flushed.err);
    if (ok || flushed) return settle();
    waiting = true;
    out.once('drain', onDrain);
  });
}

/**
 * Lines written together: those handed over in one turn of the event loop go out as one chunk
 * (writeOut), once the turn is over. Each write's promise settles when its chunk is out, so a
 * writer still waits for a slow reader. A bulk run's rows finish a few at a time, and a write of
 * its own for each line was a system call per row (stdout to a pipe or file is synchronous).
 */
export function lineBatcher(out: NodeJS.WritableStream): (line: string) => Promise<void> {
  let lines: string[] = [];
  let pending: Promise<void> | undefined;
  return (line) => {
    lines.push(line);
    pending ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      const chunk = lines.join('');
      lines = [];
      pending = undefined;
      return writeOut(out, chunk);
    });
    return pending;
  };
}
