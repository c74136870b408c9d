import { CliError, ExitCode } from '../errors.js';

// What goes wrong with the ledger itself. Money never moves without it: an intent is written
// before every send, so a ledger that cannot be reached stops the move before anything leaves.

/** The shared ledger does not answer (down, unreachable, a statement timed out): exit 8. */
export class LedgerUnreachableError extends CliError {
  constructor(
    readonly where: string,
    cause: unknown,
  ) {
    super(`the ledger ${where} cannot be reached (${reason(cause)}); no money moves without it. Reads (get, list, export) still work`, ExitCode.network, { cause });
  }
}

/**
 * This process's leases ran out without being renewed (the ledger stopped answering, or the
 * process was frozen): another machine may have taken its locks over, so it sends nothing more.
 */
export class LeaseLostError extends CliError {
  constructor(where: string, cause?: unknown) {
    super(`lost its locks in the ledger ${where}${cause ? ` (${reason(cause)})` : ''}: another payctl may have taken them over; stopped before sending anything more`, ExitCode.network, { cause });
  }
}

function reason(cause: unknown): string {
  if (cause instanceof Error) {
    const code = (cause as { code?: string }).code;
    const message = cause.message.split('\n')[0] || cause.name;
    return code && !message.includes(code) ? `${code}: ${message}` : message;
  }
  return String(cause);
}

/**
 * The ledger cannot be written or read: its file on this machine (a full disk, a read-only or
 * unreadable file, a file that is not a database, a damaged one), or a shared database that
 * refuses (its disk full, read-only, permission denied): exit 2, naming it and why in words. What
 * was sent is said by whoever catches it (before a send: nothing; after: the intent stays for the
 * next run to settle).
 */
export class LedgerFileError extends CliError {
  constructor(
    readonly where: string,
    readonly reason: string,
    cause?: unknown,
  ) {
    super(`the ledger ${where} cannot be used (${reason})`, ExitCode.usage, { cause });
  }

  /** The same failure, said with what it means for the move at hand. */
  saying(what: string): LedgerFileError {
    const said = new LedgerFileError(this.where, this.reason, this.cause);
    said.message = `the ledger ${this.where} cannot be used (${this.reason}); ${what}`;
    return said;
  }
}

/** SQLite's busy, in words: another process at work in the file. */
export const BUSY = 'another process kept it locked too long';

/** What SQLite says of a file it cannot use, as a person reads it; undefined for anything else (a bug). */
export function sqliteTrouble(err: unknown): string | undefined {
  const e = err as { code?: string; errcode?: number; errstr?: string; message?: string };
  const text = `${e.code ?? ''} ${e.errstr ?? ''} ${e.message ?? ''}`;
  const known: Array<[RegExp, string]> = [
    [/SQLITE_FULL|disk is full/i, 'the disk is full'],
    [/SQLITE_READONLY|readonly database|read-only/i, 'it is read-only'],
    [/SQLITE_NOTADB|not a database/i, 'it is not a database'],
    [/SQLITE_CORRUPT|malformed/i, 'it is damaged'],
    [/SQLITE_CANTOPEN|unable to open/i, 'it cannot be opened'],
    [/SQLITE_PERM|SQLITE_AUTH|permission denied|EACCES/i, 'permission denied'],
    [/SQLITE_IOERR|disk I\/O error/i, 'a disk I/O error'],
    [/SQLITE_BUSY|database is locked/i, BUSY],
  ];
  return known.find(([pattern]) => pattern.test(text))?.[1];
}

/**
 * What PostgreSQL says of a write it refuses, as a person reads it (SQLSTATE codes); undefined for
 * anything else. The database's own disk full is a refusal, not the database being away.
 */
export function postgresTrouble(err: unknown): string | undefined {
  const code = (err as { code?: string }).code ?? '';
  const known: Record<string, string> = {
    '53100': "the database server's disk is full",
    '25006': 'it is read-only: a read-only database, or a standby',
    '42501': 'permission denied',
    '42P01': 'its tables are gone (dropped while in use)',
    '53400': "the database server's configured limits are reached",
  };
  return known[code];
}

/**
 * A ledger payctl used on this machine is gone, empty, unreadable or replaced by another: money
 * does not move until someone decides (restore it, or start anew with `payctl ledger reset --yes`),
 * since the moves it recorded could otherwise be made again. Exit 2.
 */
export class LedgerLostError extends CliError {
  constructor(
    readonly where: string,
    readonly what: string,
    readonly since: string,
    sent = 'nothing was sent',
  ) {
    super(
      `the ledger ${where} ${what}, but payctl has kept its money moves there since ${since}; ${sent}. Moves it recorded could be made again without it: restore it (from a backup), or run 'payctl ledger reset --yes' to start a new one (earlier moves are then known only from the sales' own history). Reads still work`,
      ExitCode.usage,
    );
  }

  /** What a read of the lost ledger says before it shows what is there now. */
  get forReads(): string {
    return `the ledger ${this.where} ${this.what} (payctl has kept its money moves there since ${this.since}): money moves stop until it is restored or 'payctl ledger reset --yes'; showing what is there now`;
  }
}

/** `has no table payctl_locks`, `has no tables payctl_schema, payctl_intents`. */
export function missingTables(names: readonly string[]): string {
  return `has no table${names.length > 1 ? 's' : ''} ${names.join(', ')}`;
}

/**
 * What a store finds where a ledger it must not make should be (one this operator used before):
 * no tables, or tables without the ledger's identity. Said by open.ts as a LedgerLostError.
 */
export class LedgerMissing extends Error {
  constructor(readonly what: string) {
    super(`the ledger ${what}`);
    this.name = 'LedgerMissing';
  }
}

/** A PostgreSQL URL as it may be shown: the password masked, like an API key. */
export function maskLedgerUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '****';
    if (parsed.searchParams.has('password')) parsed.searchParams.set('password', '****');
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:/@]*):[^@]*@/, '//$1:****@');
  }
}

/** The secrets a ledger URL carries, to keep out of every message and log. */
export function ledgerUrlSecrets(url: string): string[] {
  try {
    const parsed = new URL(url);
    return [decodeURIComponent(parsed.password), parsed.searchParams.get('password') ?? ''].filter((s) => s.length > 0);
  } catch {
    return [];
  }
}
