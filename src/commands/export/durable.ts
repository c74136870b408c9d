// Files that are either wholly there or not at all, across a crash or a power cut: written under
// another name, flushed to the disk, then renamed over the real name (a rename is atomic), and the
// directory flushed too so that the rename itself survives.
import { closeSync, fsyncSync, openSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

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

/** Renames `from` over `to` and makes the rename durable. */
export function durableRename(from: string, to: string): void {
  renameSync(from, to);
  syncDir(dirname(to));
}

/**
 * Writes a file atomically: a temporary file beside it, synced, renamed over it. The text may come
 * in parts, so that a large one is never held whole.
 */
export function writeFileAtomically(file: string, text: string | Iterable<string>): void {
  const temp = `${file}.tmp-${process.pid}`;
  const fd = openSync(temp, 'w', 0o600);
  try {
    for (const part of typeof text === 'string' ? [text] : text) writeFileSync(fd, part);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  durableRename(temp, file);
}
