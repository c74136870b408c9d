// Which store keeps the ledger: PostgreSQL when a ledger URL is set (a team's shared ledger),
// else SQLite in this machine's state directory. Either way its scope is the account (account.ts).
import { renameSync, rmSync, statSync } from 'node:fs';
import { sqliteLedgerPath } from '../config/paths.js';
import { UsageError } from '../errors.js';
import type { Account } from './account.js';
import { LedgerFileError, LedgerLostError, maskLedgerUrl } from './errors.js';
import { Ledger } from './ledger.js';
import { knownLedgers, rememberLedger } from './marker.js';
import { localDateTime } from '../time/zone.js';
import type { Identity, LedgerStore } from './types.js';

export interface LedgerPlace {
  stateDir: string;
  /** postgres://…, from the profile's ledger_url or PAYCTL_LEDGER_URL. */
  url?: string | undefined;
}

/** A ledger URL as payctl accepts it: postgres:// or postgresql://, with a host. */
export function checkLedgerUrl(url: string, name = 'ledger_url'): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`${name}: "${maskLedgerUrl(url)}" is not a URL; give postgres://user:password@host:5432/database`);
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new UsageError(`${name}: only PostgreSQL ledgers are supported (postgres://user:password@host:5432/database), not ${parsed.protocol}`);
  }
  if (!parsed.hostname) throw new UsageError(`${name}: "${maskLedgerUrl(url)}" names no host`);
  return url;
}

/** Where a ledger is, as messages and the record of known ledgers name it. */
export function ledgerWhere(place: LedgerPlace): string {
  return place.url ? maskLedgerUrl(place.url) : sqliteLedgerPath(place.stateDir);
}

async function openStore(place: LedgerPlace, account: Account, scrub: (text: string) => string): Promise<LedgerStore> {
  if (place.url) {
    const url = checkLedgerUrl(place.url, 'PAYCTL_LEDGER_URL / ledger_url');
    // The driver is loaded only here: a machine without a shared ledger never pays for it.
    const { PostgresStore } = await import('./postgres-store.js');
    return PostgresStore.open(url, maskLedgerUrl(url), account.id, scrub);
  }
  const { SqliteStore } = await import('./sqlite-store.js');
  return SqliteStore.open(sqliteLedgerPath(place.stateDir), account.id, scrub);
}

/** What stands in the place of a ledger this machine used: nothing, an empty file, a damaged one (undefined: a file to open). */
function sqliteGone(file: string): string | undefined {
  try {
    return statSync(file).size === 0 ? 'is empty' : undefined;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'is missing' : undefined;
  }
}

/**
 * Opens the ledger of `account`. One this machine has kept moves in before (ledgers.json) must
 * still be there, readable, and the same ledger: else LedgerLostError (exit 2), and nothing moves
 * until it is restored or `payctl ledger reset --yes` starts a new one.
 */
export async function openLedger(place: LedgerPlace, account: Account, scrub: (text: string) => string, me?: Identity): Promise<Ledger> {
  const where = ledgerWhere(place);
  const known = knownLedgers(place.stateDir)[where];
  const since = known ? localDateTime(known.since) : '';
  if (known && !place.url) {
    const gone = sqliteGone(where);
    if (gone) throw new LedgerLostError(where, gone, since);
  }
  let store: LedgerStore;
  try {
    store = await openStore(place, account, scrub);
  } catch (err) {
    // A file that is not a database (or no longer one) where the ledger was: lost, not merely failing.
    if (known && err instanceof LedgerFileError && /not a database|damaged/.test(err.reason)) throw new LedgerLostError(where, `cannot be read (${err.reason})`, since);
    throw err;
  }
  if (known && store.ledgerId !== known.id) {
    await store.close();
    throw new LedgerLostError(where, 'is not the ledger payctl kept its moves in (it was made anew, or replaced)', since);
  }
  if (!known) rememberLedger(place.stateDir, where, { id: store.ledgerId, since: store.since });
  return new Ledger(store, undefined, me);
}

/**
 * `payctl ledger reset --yes`: accepts that the ledger this machine used is gone. A damaged file is
 * moved aside (kept, not deleted), a new ledger is made (or, for a shared one, the one there now is
 * taken), and remembered in its place.
 */
export async function resetLedger(place: LedgerPlace, account: Account, scrub: (text: string) => string): Promise<{ ledger: Ledger; movedAside?: string }> {
  const where = ledgerWhere(place);
  let movedAside: string | undefined;
  if (!place.url && sqliteGone(where) === undefined) {
    // Kept whole if it opens and passes its check; else moved aside for whoever wants to look.
    const sound = await openStore(place, account, scrub)
      .then(async (store) => {
        const problems = await store.check();
        await store.close();
        return problems.length === 0;
      })
      .catch(() => false);
    if (!sound) {
      movedAside = `${where}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      renameSync(where, movedAside);
      for (const extra of ['-wal', '-shm']) rmSync(`${where}${extra}`, { force: true });
    }
  } else if (!place.url) {
    rmSync(where, { force: true });
  }
  const store = await openStore(place, account, scrub);
  rememberLedger(place.stateDir, where, { id: store.ledgerId, since: store.since });
  return { ledger: new Ledger(store), ...(movedAside ? { movedAside } : {}) };
}
