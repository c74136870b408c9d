// Which store keeps the ledger: PostgreSQL when a ledger URL is set (a team's shared ledger),
// else SQLite in this machine's state directory. Either way its scope is the account (account.ts).
import { renameSync, rmSync, statSync } from 'node:fs';
import { sqliteLedgerPath } from '../config/paths.js';
import { UsageError } from '../errors.js';
import type { Account } from './account.js';
import { LedgerFileError, LedgerLostError, LedgerMissing, maskLedgerUrl } from './errors.js';
import { Ledger } from './ledger.js';
import { knownLedgers, noteLatest, rememberLedger, type KnownLedger, type LedgerRecord } from './marker.js';
import { localDateTime } from '../time/zone.js';
import type { Identity, LedgerStore } from './types.js';

export interface LedgerPlace {
  stateDir: string;
  /** The operator's config directory: the record of the ledgers it used is kept there (marker.ts). */
  configDir: string;
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

/** `create`: make the tables if they are not there (a ledger no record knows, or a reset). */
async function openStore(place: LedgerPlace, account: Account, scrub: (text: string) => string, create: boolean): Promise<LedgerStore> {
  if (place.url) {
    const url = checkLedgerUrl(place.url, 'PAYCTL_LEDGER_URL / ledger_url');
    // The driver is loaded only here: a machine without a shared ledger never pays for it.
    const { PostgresStore } = await import('./postgres-store.js');
    return PostgresStore.open(url, maskLedgerUrl(url), account.id, scrub, create);
  }
  const { SqliteStore } = await import('./sqlite-store.js');
  return SqliteStore.open(sqliteLedgerPath(place.stateDir), account.id, scrub, create);
}

/**
 * The records of known ledgers (marker.ts): the config directory's, and the state directory's for
 * the embedded sandbox, whose account lives and dies with that directory. `mine` is the one the
 * ledger of `account` is recorded in.
 */
function records(place: LedgerPlace, account: Account): { mine: LedgerRecord; all: LedgerRecord[] } {
  const config: LedgerRecord = { dir: place.configDir, what: 'config directory' };
  const state: LedgerRecord = { dir: place.stateDir, what: 'state directory' };
  return { mine: account.embedded ? state : config, all: [config, state] };
}

interface Known {
  /** The ledger's ids the records know (one, unless they disagree). */
  ids: Set<string>;
  since: number;
  /** Whether the record of this account's ledgers knows it. */
  mine: boolean;
  /** The newest money move any record noted there. */
  latest?: { id: number; at: number };
}

/** What the records know of the ledger at `where`. */
function knownAt(place: LedgerPlace, account: Account, where: string): Known | undefined {
  const { mine, all } = records(place, account);
  let found: Known | undefined;
  for (const record of all) {
    const known: KnownLedger | undefined = knownLedgers(record)[where];
    if (!known) continue;
    found ??= { ids: new Set(), since: known.since, mine: false };
    found.ids.add(known.id);
    found.since = Math.min(found.since, known.since);
    if (record === mine) found.mine = true;
    if (known.latest && known.latest.id > (found.latest?.id ?? 0)) found.latest = known.latest;
  }
  return found;
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
 * Opens the ledger of `account`. One this operator has kept moves in before (ledgers.json) must
 * still be there, readable, and the same ledger: else LedgerLostError (exit 2), and nothing moves
 * until it is restored or `payctl ledger reset --yes` starts a new one. Its tables are never made
 * anew here: only a ledger no record knows is created.
 */
export async function openLedger(place: LedgerPlace, account: Account, scrub: (text: string) => string, me?: Identity): Promise<Ledger> {
  const where = ledgerWhere(place);
  const known = knownAt(place, account, where);
  const since = known ? localDateTime(known.since) : '';
  if (known && !place.url) {
    const gone = sqliteGone(where);
    if (gone) throw new LedgerLostError(where, gone, since);
  }
  let store: LedgerStore;
  try {
    store = await openStore(place, account, scrub, !known);
  } catch (err) {
    if (known && err instanceof LedgerMissing) throw new LedgerLostError(where, err.what, since);
    // A file that is not a database (or no longer one) where the ledger was: lost, not merely failing.
    if (known && err instanceof LedgerFileError && /not a database|damaged/.test(err.reason)) throw new LedgerLostError(where, `cannot be read (${err.reason})`, since);
    // Opened before the first send: whatever it says, nothing went out.
    if (err instanceof LedgerFileError) throw err.saying('nothing was sent');
    throw err;
  }
  try {
    if (known && [...known.ids].some((id) => id !== store.ledgerId)) throw new LedgerLostError(where, 'is not the ledger payctl kept its moves in (it was made anew, or replaced)', since);
    // Its identity whole, its rows gone (tables truncated, rows deleted): emptied all the same.
    if (known?.latest && !(await store.hasIntent(known.latest.id, known.latest.at))) {
      throw new LedgerLostError(where, `was emptied (the newest money move payctl recorded there, #${known.latest.id}, is gone)`, since);
    }
    if (!known?.mine) await rememberLedger(records(place, account).mine, where, { id: store.ledgerId, since: store.since });
  } catch (err) {
    await store.close();
    throw err;
  }
  const ledger = new Ledger(store, undefined, me);
  const mine = records(place, account).mine;
  ledger.onClose = async (newest) => {
    if (newest) await noteLatest(mine, where, store.ledgerId, { id: newest.id, at: newest.created_at });
  };
  return ledger;
}

/**
 * A ledger known to be lost (LedgerLostError), as it is now, for reading only (`ledger list`,
 * `ledger show`): opened without making anything; undefined when there is nothing to read (its
 * file or its tables gone, or unreadable).
 */
export async function readLostLedger(place: LedgerPlace, account: Account, scrub: (text: string) => string): Promise<Ledger | undefined> {
  if (!place.url && sqliteGone(ledgerWhere(place))) return undefined;
  try {
    return new Ledger(await openStore(place, account, scrub, false));
  } catch (err) {
    if (err instanceof LedgerMissing || err instanceof LedgerFileError) return undefined;
    throw err;
  }
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
    const sound = await openStore(place, account, scrub, true)
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
  const store = await openStore(place, account, scrub, true);
  // Every record that knew the lost one now knows this one, and so does this account's.
  const { mine, all } = records(place, account);
  for (const record of all) {
    if (record === mine || knownLedgers(record)[where]) await rememberLedger(record, where, { id: store.ledgerId, since: store.since });
  }
  return { ledger: new Ledger(store), ...(movedAside ? { movedAside } : {}) };
}
