// Which ledgers this operator has kept money moves in, and which one each was (its id, made with
// its tables): ledgers.json in the config directory, outside the state directory that holds the
// SQLite ledger. A ledger deleted (with the whole state directory), emptied, damaged, its tables
// dropped, or made anew in its place is noticed from here, so money does not move again as if
// nothing had been done before (the moves it recorded are what stop a rerun from repeating them).
//
// Except the embedded sandbox's: its account lives in the state directory (its sales, its
// marketplaces), so the record of a ledger only it used lives there too (state/ledgers.json). A
// state directory deleted whole takes the sandbox's sales with the ledger, and leaves nothing a
// rerun could repeat: a fresh sandbox starts with a fresh ledger, unblocked. A ledger deleted alone
// (the sandbox's sales still there) is noticed like any other.
import { randomUUID } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../errors.js';
import { dirError, ensureDir } from '../platform/dirs.js';
import { acquireLock, LockBusyError, LockFileError, tryLock, type HeldLock } from '../platform/lock.js';

/** Two first uses at once (two profiles, two ledgers) each keep the other's entry: one writer at a time. */
const LOCK = { leaseMs: 4_000, waitMs: 5_000 };

export interface KnownLedger {
  /** The ledger's own id (payctl_meta), made with its tables. */
  id: string;
  /** Since when (ms) it keeps money moves. */
  since: number;
  /**
   * The newest money move this operator recorded there (its intent's id and time): payctl never
   * deletes one, so a ledger without it was emptied (its tables truncated, its rows deleted),
   * even with its identity whole.
   */
  latest?: { id: number; at: number };
}

/** Where a record of known ledgers is kept, and what its directory is called in messages. */
export interface LedgerRecord {
  dir: string;
  what: 'config directory' | 'state directory';
}

export function recordPath(record: LedgerRecord): string {
  return path.join(record.dir, 'ledgers.json');
}

/** Every ledger a record knows, by where it is (a path, or a URL with its password masked). */
export function knownLedgers(record: LedgerRecord): Record<string, KnownLedger> {
  const file = recordPath(record);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new UsageError(`${file} (which ledgers payctl keeps money moves in) cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); nothing was sent`);
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, KnownLedger>;
  } catch {
    // said below
  }
  throw new UsageError(`${file} (which ledgers payctl keeps money moves in) is damaged; nothing was sent. If the ledger itself is sound ('payctl ledger check'), delete ${file}: it is written again`);
}

/**
 * Notes the newest intent this process wrote in the ledger at `where` as the record's latest, if
 * the record still knows that ledger as `id` (another process may have reset it meanwhile) and
 * knows no newer one. Best effort: the record's identity is what stops a lost ledger; this adds
 * an emptied one.
 */
export async function noteLatest(record: LedgerRecord, where: string, id: string, latest: { id: number; at: number }): Promise<void> {
  await underLock(record, false, (file) => {
    const known = knownLedgers(record)[where];
    if (!known || known.id !== id || (known.latest?.id ?? 0) >= latest.id) return;
    writeRecord(record, file, where, { ...known, latest });
  });
}

/**
 * Records the ledger at `where`: under a lock (ledgers.json.lock), atomically (a temporary file
 * renamed over it), mode 0600. A directory that cannot be written stops the move (exit 2, naming
 * it) before anything is sent: a ledger left unrecorded could be lost later without anyone noticing.
 */
export async function rememberLedger(record: LedgerRecord, where: string, ledger: KnownLedger): Promise<void> {
  await underLock(record, true, (file) => writeRecord(record, file, where, ledger));
}

/**
 * Runs `work` holding the record's lock. Taken at once when free, with no pause: commands in one
 * process (a test's, an MCP server's) never wait on each other, and keep their order. Held by
 * another process: waited for (`wait`), or given up.
 */
async function underLock(record: LedgerRecord, wait: boolean, work: (file: string) => void): Promise<void> {
  const file = recordPath(record);
  ensureDir(record.dir, record.what);
  let lock: HeldLock;
  try {
    try {
      lock = tryLock(file, LOCK);
    } catch (err) {
      if (!(err instanceof LockBusyError)) throw err;
      if (!wait) return;
      lock = await acquireLock(file, LOCK);
    }
  } catch (err) {
    if (err instanceof LockFileError) throw dirError(record.what, record.dir, err.cause);
    if (err instanceof LockBusyError) throw new UsageError(`${file} is being changed by another payctl process (${err.message}); nothing was sent. Try again`);
    throw err;
  }
  try {
    work(file);
  } finally {
    lock.release();
  }
}

/** Writes `ledger` as the record's entry for `where` (under the lock). */
function writeRecord(record: LedgerRecord, file: string, where: string, ledger: KnownLedger): void {
  const temporary = `${file}.tmp-${randomUUID().slice(0, 8)}`;
  try {
    const all = { ...knownLedgers(record), [where]: ledger };
    writeFileSync(temporary, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
    renameSync(temporary, file);
  } catch (err) {
    rmSync(temporary, { force: true });
    if (err instanceof UsageError) throw err;
    throw dirError(record.what, record.dir, err);
  }
}
