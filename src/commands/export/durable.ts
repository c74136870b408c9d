// Files that are either wholly there or not at all, across a crash or a power cut: written under
// another name, flushed to the disk, then renamed over the real name (a rename is atomic), and the
// directory flushed too so that the rename itself survives.
import { closeSync, fchmodSync, fsyncSync, openSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { FileStepError, onFile } from './failure.js';

/** Flushes a directory's entries (a rename into it) to the disk. */
export function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some file systems cannot open or sync a directory; the rename still happened.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Renames `from` over `to` and makes the rename durable. A failure is a FileStepError naming `from`. */
export function durableRename(from: string, to: string): void {
  onFile(from, () => renameSync(from, to), `rename ${from} to ${to}`);
  syncDir(dirname(to));
}

/** The temporary file writeFileAtomically writes `file` as. */
export const tempOf = (file: string): string => `${file}.tmp-${process.pid}`;

/**
 * Writes a file atomically: a temporary file beside it, synced, renamed over it. The text may come
 * in parts, so that a large one is never held whole. On a failure the temporary file is removed
 * (the error's leftovers say whether it could be) and a FileStepError naming it is thrown. The
 * file is 0600, or exactly `mode` when given (a file of someone else's kept as it was).
 */
export function writeFileAtomically(file: string, text: string | Iterable<string>, mode?: number): void {
  const temp = tempOf(file);
  let created = false;
  try {
    const fd = onFile(temp, () => openSync(temp, 'w', mode ?? 0o600));
    created = true;
    try {
      onFile(temp, () => {
        if (mode !== undefined) fchmodSync(fd, mode);
        for (const part of typeof text === 'string' ? [text] : text) writeFileSync(fd, part);
        fsyncSync(fd);
      });
    } finally {
      closeSync(fd);
    }
    durableRename(temp, file);
  } catch (err) {
    const failure = err instanceof FileStepError ? err : new FileStepError(`write ${temp}`, temp, err);
    if (created) failure.leftovers.remove(temp);
    throw failure;
  }
}
