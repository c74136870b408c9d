import { randomUUID } from 'node:crypto';
import type { Owner } from '../platform/owner.js';
// The ledger's records, shared by its two stores (SQLite on this machine, PostgreSQL for a team)
// and by the protocol on top of them (guard.ts). Every time is milliseconds on the ledger's clock
// (ledger.ts): for a shared ledger that is the database server's, so two machines whose clocks
// disagree still agree on when a lease ends or a settle window closes.

export type IntentState =
  /** Written before sending; the process may have died before, during or after the request. */
  | 'pending'
  /** The service shows it happened. */
  | 'applied'
  /** The service refused it (an error answer), or a check before sending stopped it: nothing moved. */
  | 'refused'
  /** Proven not applied: the connection never opened, or it was not seen within its settle window. */
  | 'not_applied'
  /** Checked, and still cannot tell: the next run checks again before sending. */
  | 'unknown';

export const UNRESOLVED: readonly IntentState[] = ['pending', 'unknown'];

export interface Intent {
  id: number;
  /** What is locked while it moves: `transaction:<id>`, `reference:<ref>`, `invoice:<id>`, … */
  key: string;
  operation: string;
  target: string;
  /** The amount the user asked for, or null for "all that remains" / the whole amount. */
  requested_cents: number | null;
  /** The amount sent. */
  amount_cents: number | null;
  /** JSON of what the resource looked like before the first attempt (what tells a new change from an old one). */
  before: string | null;
  fingerprint: string | null;
  /** The bulk run that wrote it (an id of its own per run), and the input's name for people. */
  batch: string | null;
  batch_name: string | null;
  row: number | null;
  state: IntentState;
  detail: string | null;
  /** What identified the move in the service once applied: a history entry's id, a transaction's id. */
  proof: string | null;
  created_at: number;
  /** Until when a request of this intent could still land (its send plus the settle window). */
  settle_until: number | null;
  updated_at: number;
  /** `user@host` of the process that wrote it. */
  holder: string;
  /** The operator's display name (the profile's operator_name) when one was set. */
  operator_name: string | null;
  /** The AI agent that wrote it (its MCP client's name, or `shell: CLAUDECODE is set`), or null for a person or a script. */
  agent: string | null;
  /** The `payctl mcp` session the agent wrote it in, or null. */
  session: string | null;
  pid: number;
}

export type NewIntent = Pick<Intent, 'key' | 'operation' | 'target'> &
  Partial<Pick<Intent, 'requested_cents' | 'amount_cents' | 'before' | 'fingerprint' | 'batch' | 'batch_name' | 'row' | 'settle_until' | 'detail' | 'proof'>> & {
    state?: IntentState;
  };

/** The fields of an intent that change after it is written; stores write them whole. */
export type IntentChange = Pick<Intent, 'id' | 'state' | 'detail' | 'proof' | 'settle_until' | 'updated_at'>;

/** A lock is a lease: its holder renews it while it works; once it expires, anyone may take it. */
export interface Lock {
  key: string;
  /** `user@host`, for people. */
  holder: string;
  /** Which machine (hostname and boot): only there can the holder's pid be asked whether it lives. */
  host_id: string;
  pid: number;
  /** The process's start time (Linux), so a reused pid is not mistaken for the holder. */
  started: string;
  /** One per process: what renewals and releases match on. */
  token: string;
  since: number;
  expires_at: number;
}

/** Who this process is, as written on its locks and intents: with the operator's display name (operator_name) when the profile sets one. */
export type Identity = Owner & { name?: string | undefined; agent?: string | undefined; session?: string | undefined };

export interface ClaimRequest {
  key: string;
  /**
   * Called inside the claim's transaction once the key is held, with every intent on it: an
   * intent returned is written in the same commit (a bulk row that needs no lookup first).
   */
  decide?: (memory: Intent[]) => NewIntent | undefined;
}

export type ClaimResult = { ok: true; memory: Intent[]; intent?: Intent } | { ok: false; holder: Lock };

/** One transaction's worth of writes: a bulk run's workers share a commit. */
export interface WriteGroup {
  /** Intents to update (state, detail, proof, settle window). */
  changes: IntentChange[];
  /** Locks to let go of, after the changes. */
  releases: string[];
  records: NewIntent[];
  claims: ClaimRequest[];
}

export interface GroupOutcome {
  records: Intent[];
  claims: ClaimResult[];
}

export interface IntentFilter {
  states?: IntentState[];
  since?: number;
  key?: string;
  limit: number;
}

/** A page of the whole ledger, oldest first: the intents after id `after` (created at `since` or later), at most `limit`. */
export interface IntentPage {
  after: number;
  since?: number;
  limit: number;
}

/** A new ledger's identity: what tells it from another one at the same place later (a lost ledger recreated). */
export function newIdentity(): { id: string; since: number } {
  return { id: randomUUID(), since: Date.now() };
}

/** A value SQL written for both stores takes. */
export type SqlParam = string | number | null;

/** SQL written once for both databases (`?` placeholders), inside a store's transaction. */
export interface LedgerSql {
  all(text: string, params?: readonly SqlParam[]): Promise<Record<string, unknown>[]>;
  /** Returns how many rows it changed. */
  run(text: string, params?: readonly SqlParam[]): Promise<number>;
}

/** What a store keeps the ledger in. One scope (an account) per store object. */
export interface LedgerStore {
  readonly kind: 'sqlite' | 'postgres';
  /** Which ledger this is: made once with its tables, so a ledger lost and made anew is told apart. */
  readonly ledgerId: string;
  /** Since when (ms) it keeps money moves. */
  readonly since: number;
  /** What the database's own check finds wrong (nothing: []). */
  check(): Promise<string[]>;
  /** What became of the ledger since it was opened (deleted, emptied, replaced, its tables dropped); undefined while it is the same. */
  vanished(): Promise<string | undefined>;
  /** Whether the intent `id`, written at `createdAt`, is still there (payctl never deletes one). */
  hasIntent(id: number, createdAt: number): Promise<boolean>;
  /** Where it is, fit to print: a path, or a URL with its password masked. */
  readonly where: string;
  /** Milliseconds the store's clock is ahead of this machine's. */
  readonly clockOffset: number;
  /**
   * Applies a group in one transaction: changes, releases, records, then claims (a claim sees
   * every earlier commit, so a lock given up by a holder that had settled its intent is never
   * taken without that intent). `now` is the ledger clock's.
   */
  apply(group: WriteGroup, me: Identity, now: number, leaseMs: number): Promise<GroupOutcome>;
  /** Extends every lock this process holds; returns the keys it still holds. */
  renew(me: Identity, now: number, leaseMs: number): Promise<string[]>;
  intentsOn(keys: string[]): Promise<Intent[]>;
  unresolvedByFingerprint(fingerprint: string): Promise<Intent | undefined>;
  list(filter: IntentFilter): Promise<Intent[]>;
  /** Read by id, a page at a time: an export of a ledger of any size holds one page in memory. */
  page(page: IntentPage): Promise<Intent[]>;
  locks(key?: string): Promise<Lock[]>;
  /** Takes the lock away from whoever holds it; returns what it was. */
  breakLock(key: string): Promise<Lock | undefined>;
  /**
   * Runs `work` in one write transaction, with the account's scope: all of it lands or none, and
   * no other writer (process or machine) changes what it read before it commits. For the
   * policy's rules and requests (policy/book.ts), whose SQL is the same on both databases.
   */
  transact<T>(work: (sql: LedgerSql, scope: string) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
