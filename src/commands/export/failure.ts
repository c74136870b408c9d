// When the local machine refuses an export's files (a full disk, a quota, a read-only or failing
// file system, no permission): the run removes what it made, its partial file and its temporary
// files, and stops with one line naming the file that failed, what it was doing, what it removed
// (or could not) and what is as it was. Exit 2, as for anything about the local machine.
import { rmSync } from 'node:fs';
import { CliError, ExitCode } from '../../errors.js';

/** The errors of the local file system an export explains, as the system says them. */
const LOCAL_ERRORS: Record<string, string> = {
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EIO: 'input/output error',
  EFBIG: 'file too large',
};

const codeOf = (err: unknown): string | undefined => {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

/** The system's words for an error of the local file system (its code when not one of those named); undefined for any other error. */
export function localReason(err: unknown): string | undefined {
  const code = codeOf(err instanceof FileStepError ? err.cause : err);
  return code === undefined ? undefined : (LOCAL_ERRORS[code] ?? code);
}

/** A file operation that failed, with the file it was on (a write to an open file names none). */
export class FileStepError extends Error {
  /** What the failed step itself made and removed (a temporary file), or could not. */
  readonly leftovers = new Leftovers();

  constructor(
    /** What was done, as the message says it: `write /x/a.partial`, `rename /x/a.partial to /x/a`. */
    readonly step: string,
    /** The file to name. */
    readonly path: string,
    cause: unknown,
  ) {
    super(`cannot ${step}: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'FileStepError';
  }
}

/** Runs `work`; an error it throws is rethrown as a FileStepError on `path`. */
export function onFile<T>(path: string, work: () => T, step = `write ${path}`): T {
  try {
    return work();
  } catch (err) {
    throw err instanceof FileStepError ? err : new FileStepError(step, path, err);
  }
}

export async function onFileAsync<T>(path: string, work: () => Promise<T>, step = `write ${path}`): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw err instanceof FileStepError ? err : new FileStepError(step, path, err);
  }
}

/** Removes a file the run made; undefined when it is gone, else why it is still there. */
export function removeOwn(path: string): string | undefined {
  try {
    rmSync(path, { force: true });
    return undefined;
  } catch (err) {
    return LOCAL_ERRORS[codeOf(err) ?? ''] ?? codeOf(err) ?? (err as Error).message;
  }
}

/** What a failed run made and tried to remove: what is gone, and what is left and why. */
export class Leftovers {
  readonly removed: string[] = [];
  readonly left: Array<{ path: string; why: string }> = [];

  /** Takes in what another list holds (a failed step's own). */
  add(other: Leftovers): void {
    this.removed.push(...other.removed);
    this.left.push(...other.left);
  }

  remove(path: string | undefined, existed = true): void {
    if (path === undefined) return;
    const why = removeOwn(path);
    if (why !== undefined) this.left.push({ path, why });
    else if (existed) this.removed.push(path);
  }

  /** "removed it", "removed it and /x/s.json.next", "… ; /x/a.partial is still there (permission denied): delete it". */
  describe(failed: string): string | undefined {
    const others = this.removed.filter((p) => p !== failed);
    const parts: string[] = [];
    if (this.removed.length > 0) {
      const named = [...(this.removed.includes(failed) ? ['it'] : []), ...others];
      parts.push(`removed ${named.join(' and ')}`);
    }
    for (const { path, why } of this.left) parts.push(`could not remove ${path === failed ? 'it' : path} (${why}): delete it`);
    return parts.length === 0 ? undefined : parts.join('; ');
  }
}

/**
 * The one line a run stops with when the local machine refused a file: exit 2.
 * `doing` is what payctl was doing ("writing the export", "saving the state"); `outcome` what is
 * as it was, or what the user must know about the files that count.
 */
export function localFailure(err: FileStepError, doing: string, leftovers: Leftovers, outcome: string): CliError {
  const reason = localReason(err) ?? (err.cause as Error)?.message ?? String(err.cause);
  const removed = leftovers.describe(err.path);
  return new CliError([`cannot ${err.step} while ${doing} (${reason})`, removed, outcome].filter(Boolean).join('; '), ExitCode.usage);
}
