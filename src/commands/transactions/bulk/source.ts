// Where a bulk file's rows come from, read twice: once to check the whole file before anything is
// sent (its header, every row, repeats, what it asks in all), and once more as the batch runs, one
// row at a time, so that a file of any size is never held in memory.
//
// A regular file is read twice from the one open file (a file renamed or replaced meanwhile is not
// read in its place; one edited in place is caught by the rows' fingerprints). Standard input and
// pipes can be read only once: the first reading keeps a private copy under the state directory
// (bulk/input-PID-*.spool, 0600), read back for the second and removed at the end, on Ctrl-C, or
// by the next run once its process is gone. Anything else (a directory, a device such as
// /dev/zero, a socket given by name) is refused before anything is read.
import { closeSync, fstatSync, openSync, readdirSync, rmSync, writeSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Factory } from '../../../factory.js';
import { dirError, ensureDir } from '../../../platform/dirs.js';
import { UsageError } from '../../../errors.js';
import { stopBeforeExit } from '../../../platform/interrupt.js';
import { pidAlive } from '../../../platform/owner.js';

export interface BulkSource {
  /** The first reading: a pipe's copy is kept as it is read. */
  first(): AsyncIterable<Buffer | string>;
  /** The second reading, from the start. */
  again(): AsyncIterable<Buffer | string>;
  /** Closes the file and removes a pipe's copy. */
  close(): Promise<void>;
}

export async function openBulkSource(ctx: Factory, file: string): Promise<BulkSource> {
  if (file === '-') {
    const fd = ctx.io.stdinFd;
    const kind = fd === undefined ? undefined : kindOf(() => fstatSync(fd));
    if (kind !== undefined && kind !== 'file' && kind !== 'pipe' && !ctx.io.stdinIsTTY) throw new UsageError(`--file -: standard input is ${kind}, not a file or a pipe`);
    return spooled(ctx.io.stdin, ctx.config.paths.stateDir);
  }
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (err) {
    throw new UsageError(`--file: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const kind = kindOf(() => fstatSync(handle.fd));
  if (kind === 'pipe') return spooled(handle.createReadStream(), ctx.config.paths.stateDir);
  if (kind !== 'file') {
    await handle.close();
    throw new UsageError(`--file: ${file} is ${kind ?? 'not readable'}, not a file of rows (a CSV or NDJSON file, or - for standard input)`);
  }
  const reading = () => handle.createReadStream({ start: 0, autoClose: false });
  return { first: reading, again: reading, close: () => handle.close() };
}

function kindOf(stat: () => Stats): string | undefined {
  try {
    const s = stat();
    if (s.isFile()) return 'file';
    // A socket is a pipe too: what a program that starts payctl (Node's spawn, ssh) gives its stdin.
    if (s.isFIFO() || s.isSocket()) return 'pipe';
    if (s.isDirectory()) return 'a directory';
    if (s.isCharacterDevice()) return 'a device';
    return 'not a regular file';
  } catch {
    return undefined;
  }
}

const SPOOL = /^input-(\d+)-[0-9a-f]+\.spool$/;

/** Removes the copies of runs whose process is gone (killed with SIGKILL, the machine restarted). */
function removeStaleSpools(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(SPOOL.exec(name)?.[1]);
    if (!pid || pid === process.pid || pidAlive(pid)) continue;
    rmSync(path.join(dir, name), { force: true });
  }
}

/** A pipe, copied to a private file as it is read the first time, read back from there the second. */
function spooled(stream: AsyncIterable<Buffer | string>, stateDir: string): BulkSource {
  const dir = path.join(stateDir, 'bulk');
  const file = path.join(dir, `input-${process.pid}-${randomBytes(4).toString('hex')}.spool`);
  let fd: number | undefined;
  const remove = () => {
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
    rmSync(file, { force: true });
  };
  const unregister = stopBeforeExit(() => remove());
  // Before anything is sent: the first reading is over before the first row runs.
  const failed = (err: unknown) => {
    remove();
    const why = err instanceof UsageError ? err : dirError('directory for a copy of standard input', dir, err);
    return new UsageError(`${why.message}. Nothing was sent`);
  };
  return {
    async *first() {
      try {
        ensureDir(dir, 'directory for a copy of standard input');
        removeStaleSpools(dir);
        fd = openSync(file, 'wx', 0o600);
      } catch (err) {
        throw failed(err);
      }
      for await (const chunk of stream) {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        try {
          for (let done = 0; done < bytes.length; ) done += writeSync(fd as number, bytes, done);
        } catch (err) {
          throw failed(err);
        }
        yield bytes;
      }
    },
    async *again() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
      const handle = await open(file, 'r');
      try {
        yield* handle.createReadStream({ autoClose: false });
      } finally {
        await handle.close();
      }
    },
    async close() {
      remove();
      unregister();
    },
  };
}
