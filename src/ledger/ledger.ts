// The ledger of money-moving intents, whichever store keeps it (SQLite on this machine, or
// PostgreSQL shared by a team; see open.ts). Every command that moves money writes its intent here
// before the request goes out and resolves it after, and holds a lock on what it moves (a
// transaction, a reference id, an invoice) for as long as the move is in flight, so no two payctl
// processes sharing the ledger ever have the same money move in flight.
//
// Locks are leases: a holder renews them while it works, and a machine that dies lets them go by
// themselves when they run out (on the holder's own machine at once: its pid is asked). Writes
// asked for in one turn of the event loop (a bulk run's workers claiming and settling rows) are
// committed together: one transaction instead of one each (platform/group-commit.ts).
import { type AnswerWriters, GroupCommit } from '../platform/group-commit.js';
import { currentOwner } from '../platform/owner.js';
import { LeaseLostError } from './errors.js';
import { PolicyBook } from './policy/book.js';
import type { ClaimRequest, ClaimResult, GroupOutcome, Identity, Intent, IntentChange, IntentFilter, IntentPage, IntentState, LedgerStore, Lock, NewIntent, WriteGroup } from './types.js';

/** How long a lock lasts unless renewed: a dead machine's locks are free after at most this. */
export const LEASE_MS = 20_000;
/** Renewed this often while held: three renewals may fail before a lease can run out. */
const RENEW_EVERY_MS = 5_000;
/** Nothing is sent on a lease with less than this left: a request must not outlive its lock. */
const LEASE_MARGIN_MS = 5_000;
/**
 * How long a claim or a settle waits for other writes to share its commit. A settled row holds no
 * request slot, only its result line, so a moment's wait costs no throughput, and commits are a
 * good part of a bulk run's own work (measured on 3,000 refunds at --concurrency 8: a commit every
 * turn of the event loop took 1.92 s, waiting 2 ms 1.80 s).
 */
const SHARE_COMMIT_MS = 2;

interface Pending<T> {
  resolve: (value: T) => void;
  reject: (err: unknown) => void;
}

/** One write waiting for its commit, with whoever waits for its answer. */
type LedgerWrite =
  | ({ kind: 'claim'; request: ClaimRequest } & Pending<ClaimResult>)
  | ({ kind: 'record'; intent: NewIntent } & Pending<Intent>)
  | ({ kind: 'change'; change?: IntentChange; releases: string[] } & Pending<void>);

export class Ledger {
  /** Keys this process holds: a second claim from the same process (another worker) waits too. */
  private readonly held = new Set<string>();
  private readonly writes = new GroupCommit<LedgerWrite>((group) => this.commit(group));
  private renewer: NodeJS.Timeout | undefined;
  /** Local time until which every lock this process holds is known to be valid. */
  private leasedUntil = 0;
  private lost: unknown;
  private policyBook: PolicyBook | undefined;
  /** The newest intent this process wrote: what the record of known ledgers keeps as its latest (marker.ts). */
  newest: Pick<Intent, 'id' | 'created_at'> | undefined;
  /** The first one: gone, the ledger was emptied while this process used it. */
  private oldest: Pick<Intent, 'id' | 'created_at'> | undefined;
  /** Called once the ledger is closed (open.ts: notes the newest intent in the record). */
  onClose: ((newest: Pick<Intent, 'id' | 'created_at'> | undefined) => Promise<void>) | undefined;

  constructor(
    readonly store: LedgerStore,
    readonly leaseMs = LEASE_MS,
    readonly me: Identity = currentOwner(),
  ) {}

  get where(): string {
    return this.store.where;
  }

  /** The team's rules and approval requests, kept in this ledger beside the intents they rule. */
  get policy(): PolicyBook {
    this.policyBook ??= new PolicyBook(this.store);
    return this.policyBook;
  }

  get kind(): LedgerStore['kind'] {
    return this.store.kind;
  }

  /** Now, on the ledger's clock (the database server's, for a shared one). */
  now(): number {
    return Date.now() + this.store.clockOffset;
  }

  /** A ledger time as this machine's. */
  local(ledgerMs: number): number {
    return ledgerMs - this.store.clockOffset;
  }

  /**
   * Takes the lock on `key` for this process, unless a live holder (another process, another
   * machine whose lease runs, or another worker of this one) has it: then says who. Resolves once
   * committed, with every intent on the key read after the claim: nothing may be sent on its
   * strength before then. `decide` may name an intent to write in the same commit.
   */
  claim(key: string, decide?: ClaimRequest['decide']): Promise<ClaimResult> {
    return new Promise((resolve, reject) => this.writes.add({ kind: 'claim', request: decide ? { key, decide } : { key }, resolve, reject }, SHARE_COMMIT_MS));
  }

  /** Writes an intent (pending unless said otherwise); resolves once committed. */
  record(intent: NewIntent): Promise<Intent> {
    return new Promise((resolve, reject) => this.writes.add({ kind: 'record', intent, resolve, reject }));
  }

  /** Changes an intent (in memory at once, in the ledger with the next commit). */
  update(intent: Intent, fields: Partial<Pick<Intent, 'state' | 'detail' | 'proof' | 'settle_until'>>, release?: string): Promise<void> {
    Object.assign(intent, fields, { updated_at: this.now() });
    const change: IntentChange = { id: intent.id, state: intent.state, detail: intent.detail, proof: intent.proof, settle_until: intent.settle_until, updated_at: intent.updated_at };
    return this.write(change, release === undefined ? [] : [release], release === undefined ? 0 : SHARE_COMMIT_MS);
  }

  resolve(intent: Intent, state: IntentState, detail?: string | null, proof?: string | null): Promise<void> {
    return this.update(intent, { state, ...(detail !== undefined ? { detail } : {}), ...(proof !== undefined ? { proof } : {}) });
  }

  /** Resolves the intent and lets go of `key` in one commit (the end of a bulk row). */
  resolveAndRelease(intent: Intent, state: IntentState, detail: string | null | undefined, proof: string | null | undefined, key: string): Promise<void> {
    return this.update(intent, { state, ...(detail !== undefined ? { detail } : {}), ...(proof !== undefined ? { proof } : {}) }, key);
  }

  release(key: string): Promise<void> {
    if (!this.held.has(key)) return Promise.resolve();
    return this.write(undefined, [key], SHARE_COMMIT_MS);
  }

  private write(change: IntentChange | undefined, releases: string[], waitMs: number): Promise<void> {
    return new Promise((resolve, reject) => this.writes.add({ kind: 'change', ...(change ? { change } : {}), releases, resolve, reject }, waitMs));
  }

  /** One commit for every write of `writes`: all of them land, or none (and each is told why). */
  private async commit(writes: LedgerWrite[]): Promise<AnswerWriters> {
    const group: WriteGroup = { changes: [], releases: [], records: [], claims: [] };
    for (const write of writes) {
      if (write.kind === 'claim') group.claims.push(write.request);
      else if (write.kind === 'record') group.records.push(write.intent);
      else {
        if (write.change) group.changes.push(write.change);
        group.releases.push(...write.releases);
      }
    }
    // A key held here, or claimed earlier in this same group, is refused without asking the store.
    const here = new Set(this.held);
    for (const key of group.releases) here.delete(key);
    const mine: Array<{ index: number; request: ClaimRequest }> = [];
    const answers: Array<ClaimResult | undefined> = group.claims.map((request, index) => {
      if (here.has(request.key)) return { ok: false, holder: this.heldHere(request.key) };
      here.add(request.key);
      mine.push({ index, request });
      return undefined;
    });
    const sent: WriteGroup = { ...group, claims: mine.map((m) => m.request) };
    const hadNone = this.held.size === 0;
    for (const key of group.releases) this.held.delete(key);
    const started = Date.now();
    let outcome: GroupOutcome;
    try {
      outcome = await this.store.apply(sent, this.me, this.now(), this.leaseMs);
    } catch (err) {
      for (const key of group.releases) this.held.add(key);
      return () => {
        for (const write of writes) write.reject(err);
      };
    }
    for (const intent of [...outcome.records, ...outcome.claims.flatMap((c) => (c.ok && c.intent ? [c.intent] : []))]) {
      if (!this.newest || intent.id > this.newest.id) this.newest = { id: intent.id, created_at: intent.created_at };
      if (!this.oldest || intent.id < this.oldest.id) this.oldest = { id: intent.id, created_at: intent.created_at };
    }
    mine.forEach(({ index }, i) => {
      const result = outcome.claims[i] as ClaimResult;
      if (result.ok) this.held.add(group.claims[index]!.key);
      answers[index] = result;
    });
    if (hadNone && this.held.size > 0) this.leasedUntil = started + this.leaseMs;
    this.keepRenewing();
    return () => {
      let claim = 0;
      let record = 0;
      for (const write of writes) if (write.kind === 'claim') write.resolve(answers[claim++] as ClaimResult);
      for (const write of writes) if (write.kind === 'record') write.resolve(outcome.records[record++] as Intent);
      for (const write of writes) if (write.kind === 'change') write.resolve();
    };
  }

  private heldHere(key: string): Lock {
    const now = this.now();
    return { key, holder: this.me.holder, host_id: this.me.host_id, pid: this.me.pid, started: this.me.started, token: this.me.token, since: now, expires_at: now + this.leaseMs };
  }

  /** Renews this process's leases while it holds any. */
  private keepRenewing(): void {
    if (this.held.size > 0 && !this.renewer) {
      this.renewer = setInterval(() => void this.renew(), RENEW_EVERY_MS);
      this.renewer.unref();
    } else if (this.held.size === 0 && this.renewer) {
      clearInterval(this.renewer);
      this.renewer = undefined;
    }
  }

  private async renew(): Promise<void> {
    const started = Date.now();
    const held = [...this.held];
    try {
      const still = new Set(await this.store.renew(this.me, this.now(), this.leaseMs));
      // Keys let go of meanwhile are not lost; keys claimed meanwhile were not asked about.
      const gone = held.filter((key) => !still.has(key) && this.held.has(key) && !this.releasing(key));
      if (gone.length > 0) this.lost ??= new Error(`the locks on ${gone.slice(0, 3).join(', ')} were taken over`);
      else this.leasedUntil = started + this.leaseMs;
    } catch {
      // Not renewed: the lease runs out on its own, and leased() says so before anything is sent.
    }
  }

  /** Whether letting go of `key` waits for the next commit. */
  private releasing(key: string): boolean {
    return this.writes.waiting.some((write) => write.kind === 'change' && write.releases.includes(key));
  }

  /** Throws unless every lock this process holds is known to be valid for a while yet: checked before each send. */
  assertLeased(): void {
    if (this.held.size === 0) return;
    if (this.lost !== undefined || Date.now() > this.leasedUntil - LEASE_MARGIN_MS) throw new LeaseLostError(this.where, this.lost);
  }

  holds(key: string): boolean {
    return this.held.has(key);
  }

  intentsOn(keys: string[]): Promise<Intent[]> {
    return keys.length === 0 ? Promise.resolve([]) : this.store.intentsOn(keys);
  }

  unresolvedByFingerprint(fingerprint: string): Promise<Intent | undefined> {
    return this.store.unresolvedByFingerprint(fingerprint);
  }

  list(filter: IntentFilter): Promise<Intent[]> {
    return this.store.list(filter);
  }

  /** Every intent (created at `since` or later), oldest first, `size` at a time: the whole ledger without holding it. */
  async *pages(since: number | undefined, size: number): AsyncGenerator<Intent[]> {
    for (let after = 0; ; ) {
      const page = await this.store.page({ after, limit: size, ...(since !== undefined ? { since } : {}) });
      if (page.length > 0) yield page;
      if (page.length < size) return;
      const last = (page.at(-1) as Intent).id;
      // Ids only grow: a store that answers the same page again would loop forever.
      if (last <= after) throw new Error(`the ledger ${this.where} answered a page that does not move on (id ${last} after ${after})`);
      after = last;
    }
  }

  locks(key?: string): Promise<Lock[]> {
    return this.store.locks(key);
  }

  breakLock(key: string): Promise<Lock | undefined> {
    return this.store.breakLock(key);
  }

  /**
   * What became of the ledger since it was opened (deleted, replaced, its tables dropped, or
   * emptied: the first intent this process wrote is gone); undefined while it is the same.
   */
  async vanished(): Promise<string | undefined> {
    const gone = await this.store.vanished();
    if (gone) return gone;
    return this.oldest && !(await this.store.hasIntent(this.oldest.id, this.oldest.created_at)) ? 'was emptied' : undefined;
  }

  async close(): Promise<void> {
    if (this.renewer) clearInterval(this.renewer);
    this.renewer = undefined;
    // Whatever is queued lands first; then this process's locks go.
    await this.writes.drain();
    if (this.held.size > 0) {
      const released = this.write(undefined, [...this.held], 0).catch(() => undefined);
      await this.writes.drain();
      await released;
    }
    await this.store.close();
    await this.onClose?.(this.newest).catch(() => undefined);
  }
}
