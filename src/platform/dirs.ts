import { accessSync, chmodSync, constants, mkdirSync, rmdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../errors.js';

// The directories payctl keeps its files in (the config directory, and the state directory's
// sandbox/ and ledger/) are made here and nowhere else: one level at a time with a plain mkdir,
// stopping at the first level that cannot be made, with its name. Node's recursive mkdir is not
// used: under /proc, mkdir answers ENOENT although the parent exists, and it retries that forever,
// at 100% CPU and deaf to SIGTERM.

/**
 * A directory payctl keeps its files in cannot be created, read or written: one line naming it and
 * what to do, exit 2. Like a bad flag, it is the user's to fix, and it stops a command before
 * anything is sent.
 */
export class DirError extends UsageError {
  constructor(
    what: string,
    dir: string,
    /** What is wrong with it, as the end of a sentence naming it ("is not writable (permission denied)"). */
    readonly problem: string,
  ) {
    super(`${what} ${dir} ${problem}; set PAYCTL_HOME to a writable directory`);
  }
}

/** A file-system error code in words, for a DirError. */
function reason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  switch (code) {
    case 'EACCES':
      return 'permission denied';
    case 'EPERM':
      return 'operation not permitted';
    case 'EROFS':
      return 'read-only file system';
    case 'ENOSPC':
      return 'no space left on the disk';
    case 'EDQUOT':
      return 'disk quota exceeded';
    default:
      return code ?? (err as Error).message;
  }
}

/** What a file-system error says about a directory payctl writes in, as the end of a DirError's sentence. */
function dirProblem(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOTDIR') return 'cannot be used: it or one of its parents is not a directory';
  if (code === 'EEXIST') return 'cannot be used: it exists and is not a directory';
  if (code === 'EACCES' || code === 'EPERM') return `is not writable (${reason(err)})`;
  if (code === 'EROFS') return 'is on a read-only file system';
  if (code === 'ENOSPC') return 'is on a full disk';
  return `cannot be written (${reason(err)})`;
}

/** The DirError for `err`, met using `dir` (a file in it, a lock): a level that is not a directory is named. */
export function dirError(what: string, dir: string, err: unknown): DirError {
  if ((err as NodeJS.ErrnoException).code === 'ENOTDIR') {
    try {
      missingLevels(what, resolve(dir));
    } catch (found) {
      if (found instanceof DirError) return found;
    }
  }
  return new DirError(what, dir, dirProblem(err));
}

/**
 * The levels of `dir` that do not exist yet, outermost first. Walks up at most once per level;
 * a level that exists and is not a directory, or cannot be looked at, is a DirError.
 */
function missingLevels(what: string, dir: string): string[] {
  const missing: string[] = [];
  for (let level = dir; ; level = dirname(level)) {
    let isDirectory: boolean;
    try {
      isDirectory = statSync(level).isDirectory();
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // ENOTDIR: something above is a file; the walk up finds it.
      if ((code === 'ENOENT' || code === 'ENOTDIR') && dirname(level) !== level) {
        missing.unshift(level);
        continue;
      }
      throw new DirError(what, dir, `cannot be looked at (${level}: ${reason(err)})`);
    }
    if (!isDirectory) throw new DirError(what, dir, `cannot be used: ${level === dir ? 'it' : level} is not a directory`);
    return missing;
  }
}

/** Makes each level in turn, 0700 (or `mode`) exactly, whatever the umask; returns those it made. */
function makeLevels(what: string, dir: string, levels: string[], mode = 0o700): string[] {
  const made: string[] = [];
  for (const level of levels) {
    try {
      mkdirSync(level, { mode });
    } catch (err) {
      // Made by another process meanwhile: fine, if it is a directory.
      if ((err as NodeJS.ErrnoException).code === 'EEXIST' && statSync(level, { throwIfNoEntry: false })?.isDirectory()) continue;
      throw new DirError(what, dir, `cannot be created (mkdir ${level}: ${reason(err)})`);
    }
    chmodSync(level, mode);
    made.push(level);
  }
  return made;
}

function requireWritable(what: string, dir: string): void {
  try {
    accessSync(dir, constants.W_OK);
  } catch (err) {
    throw new DirError(what, dir, `is not writable (${reason(err)})`);
  }
}

/**
 * Makes `dir` if missing (each level payctl makes is 0700, or `mode` for a directory of the user's
 * own such as a project's .vscode; one that exists is left as it is) and checks that it can be
 * written. `what` names it in the error: "config directory".
 */
export function ensureDir(dir: string, what: string, mode?: number): void {
  const path = resolve(dir);
  makeLevels(what, path, missingLevels(what, path), mode);
  requireWritable(what, path);
}

/**
 * Whether ensureDir would succeed, leaving nothing behind: the levels it would make are made and
 * removed again. For a command that must not fail only after it has sent something (login).
 */
export function probeDir(dir: string, what: string): void {
  const path = resolve(dir);
  const made = makeLevels(what, path, missingLevels(what, path));
  try {
    requireWritable(what, path);
  } finally {
    for (const level of made.reverse()) {
      try {
        rmdirSync(level);
      } catch {
        // Another process put something in it meanwhile: it stays.
      }
    }
  }
}
