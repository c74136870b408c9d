import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { Ledger, ledgerPath } from '../../src/ledger/ledger.js';
import { settle } from '../../src/ledger/settle.js';
import { openSqlite } from '../../src/ledger/sqlite.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'payctl-ledger-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const startTime = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] as string;
};

/** Writes a lock as another process would have left it. */
async function plantLock(file: string, key: string, pid: number, started: string): Promise<void> {
  const db = await openSqlite(file);
  db.prepare('INSERT OR REPLACE INTO locks (scope, key, pid, started, since) VALUES (?, ?, ?, ?, ?)').run('https://api.example', key, pid, started, Date.now());
  db.close();
}

describe('the ledger file', () => {
  it('one per profile under state/ledger, 0600 in a 0700 directory; an odd profile name cannot escape it', async () => {
    const file = ledgerPath(join(dir, 'state'), '../live prod');
    expect(file).toBe(join(dir, 'state', 'ledger', '.._live_prod.sqlite'));
    const ledger = await Ledger.open(file, 'https://api.example');
    ledger.record({ key: 'transaction:1', operation: 'transactions.void', target: '1', amount_cents: 400 });
    ledger.close();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'state', 'ledger')).mode & 0o777).toBe(0o700);
  });

  it('a state directory that cannot be written is a usage error naming the path (exit 2)', async () => {
    writeFileSync(join(dir, 'state'), 'a file where the directory should be');
    const file = ledgerPath(join(dir, 'state'), 'sandbox');
    const error = await Ledger.open(file, 'x').catch((err: unknown) => err);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(2);
    expect((error as UsageError).message).toBe(
      `state directory ${join(dir, 'state', 'ledger')} cannot be used: ${join(dir, 'state')} is not a directory; set PAYCTL_HOME to a writable directory`,
    );
  });

  it('keeps intents across processes: written pending, resolved later, found unresolved by key', async () => {
    const file = ledgerPath(dir, 'p');
    const first = await Ledger.open(file, 'https://api.example');
    const intent = first.record({ key: 'transaction:1', operation: 'transactions.void', target: '1', requested_cents: 400, amount_cents: 400, before: '{"amount":"10.00"}' });
    first.close();
    const second = await Ledger.open(file, 'https://api.example');
    expect(second.unresolved('transaction:1').map((i) => [i.id, i.state, i.amount_cents, i.before])).toEqual([[intent.id, 'pending', 400, '{"amount":"10.00"}']]);
    // Another service's intents are not this one's.
    const elsewhere = await Ledger.open(file, 'https://other.example');
    expect(elsewhere.unresolved('transaction:1')).toEqual([]);
    elsewhere.close();
    second.resolve(second.unresolved('transaction:1')[0]!, 'applied');
    expect(second.unresolved('transaction:1')).toEqual([]);
    second.close();
  });
});

describe('the SQLite under it', () => {
  it("is Node's own node:sqlite where this Node.js has it unflagged, else better-sqlite3; either way silent", async () => {
    const warnings: string[] = [];
    const listen = (w: Error) => warnings.push(w.message);
    process.on('warning', listen);
    try {
      const db = await openSqlite(':memory:');
      const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
      expect(db.driver).toBe(major > 22 || (major === 22 && minor >= 13) ? 'node:sqlite' : 'better-sqlite3');
      expect(db.prepare('SELECT ? AS a').get(7)).toEqual({ a: 7 });
      db.close();
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.includes('SQLite'))).toEqual([]);
    } finally {
      process.off('warning', listen);
    }
  });
});

describe('locks', () => {
  it('one holder at a time inside a process; released, it can be taken again', async () => {
    const ledger = await Ledger.open(ledgerPath(dir, 'p'), 'https://api.example');
    expect(ledger.claim('transaction:1').ok).toBe(true);
    expect(ledger.claim('transaction:1')).toMatchObject({ ok: false, holder: { pid: process.pid } });
    expect(ledger.claim('transaction:2').ok).toBe(true);
    ledger.release('transaction:1');
    expect(ledger.claim('transaction:1').ok).toBe(true);
    ledger.close();
  });

  it('held by a live process: refused with its pid; once that process is gone, taken over', async () => {
    const file = ledgerPath(dir, 'p');
    (await Ledger.open(file, 'https://api.example')).close();
    const other = spawn('sleep', ['30']);
    try {
      await new Promise((resolve) => other.once('spawn', resolve));
      await plantLock(file, 'transaction:1', other.pid as number, startTime(other.pid as number));
      const ledger = await Ledger.open(file, 'https://api.example');
      expect(ledger.claim('transaction:1')).toMatchObject({ ok: false, holder: { pid: other.pid } });
      other.kill('SIGKILL');
      await new Promise((resolve) => other.once('exit', resolve));
      expect(ledger.claim('transaction:1').ok).toBe(true);
      ledger.close();
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('a pid now used by another process (a different start time) does not keep a dead owner\'s lock', async () => {
    const file = ledgerPath(dir, 'p');
    (await Ledger.open(file, 'https://api.example')).close();
    await plantLock(file, 'transaction:1', process.ppid, '1');
    const ledger = await Ledger.open(file, 'https://api.example');
    expect(ledger.claim('transaction:1').ok).toBe(true);
    ledger.close();
  });
});

describe('claims and settles of a bulk run, committed together', () => {
  const intent = (id: string) => ({ key: `transaction:${id}`, operation: 'transactions.void', target: id, amount_cents: 100, batch: 'b', row: Number(id) });
  const onDisk = async (file: string) => {
    const db = await openSqlite(file);
    try {
      const intents = db.prepare('SELECT target, state FROM intents ORDER BY id').all() as Array<{ target: string; state: string }>;
      const locks = db.prepare('SELECT key FROM locks ORDER BY key').all() as Array<{ key: string }>;
      return { intents: intents.map((i) => `${i.target}:${i.state}`), locks: locks.map((l) => l.key) };
    } finally {
      db.close();
    }
  };

  /** A ledger with transaction 1 claimed (and committed) through claimSoon. */
  const claimedFirst = async () => {
    const file = ledgerPath(dir, 'p');
    const ledger = await Ledger.open(file, 'https://api.example');
    const claim = await ledger.claimSoon('transaction:1', intent('1'));
    if (!claim.ok || !claim.intent) throw new Error('not claimed');
    return { file, ledger, claimed: { ...claim, intent: claim.intent } };
  };

  it('claims asked for in one turn land in one commit: none is on disk before it resolves, all are after', async () => {
    const file = ledgerPath(dir, 'p');
    const ledger = await Ledger.open(file, 'https://api.example');
    const claims = [ledger.claimSoon('transaction:1', intent('1')), ledger.claimSoon('transaction:2', intent('2')), ledger.claimSoon('transaction:1', intent('3'))];
    expect(await onDisk(file)).toEqual({ intents: [], locks: [] });
    const [first, second, third] = await Promise.all(claims);
    expect(first).toMatchObject({ ok: true, intent: { target: '1', state: 'pending' } });
    expect(second).toMatchObject({ ok: true, intent: { target: '2', state: 'pending' } });
    // The same transaction twice in one commit: the second waits like any other holder's.
    expect(third).toMatchObject({ ok: false, holder: { pid: process.pid } });
    expect(await onDisk(file)).toEqual({ intents: ['1:pending', '2:pending'], locks: ['transaction:1', 'transaction:2'] });
    ledger.close();
  });

  it('a settle resolves the intent and lets go of its lock in one commit', async () => {
    const { file, ledger, claimed } = await claimedFirst();
    const settled = ledger.settleAndReleaseSoon(claimed.intent, 'applied', undefined, 'transaction:1');
    expect(await onDisk(file)).toEqual({ intents: ['1:pending'], locks: ['transaction:1'] });
    await settled;
    expect(await onDisk(file)).toEqual({ intents: ['1:applied'], locks: [] });
    expect(ledger.claim('transaction:1').ok).toBe(true);
    ledger.close();
  });

  it('a claim and a settle each wait a moment for other writes and share one commit; alone, a claim is committed when the moment is over', async () => {
    const { file, ledger, claimed } = await claimedFirst();
    const commits = vi.spyOn(ledger as unknown as { commitQueued: () => void }, 'commitQueued');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const next = ledger.claimSoon('transaction:2', intent('2'));
      await new Promise((resolve) => setImmediate(resolve));
      // A turn later the claim still waits (nothing may be sent on it yet): it is not on disk.
      expect(await onDisk(file)).toEqual({ intents: ['1:pending'], locks: ['transaction:1'] });
      const settled = ledger.settleAndReleaseSoon(claimed.intent, 'applied', undefined, 'transaction:1');
      await new Promise((resolve) => setImmediate(resolve));
      // The settle waits too: a result line may wait a moment, a commit of its own costs more.
      expect(await onDisk(file)).toEqual({ intents: ['1:pending'], locks: ['transaction:1'] });
      expect(commits).not.toHaveBeenCalled();
      vi.advanceTimersByTime(2);
      await Promise.all([next, settled]);
      expect(commits).toHaveBeenCalledTimes(1);
      expect(await onDisk(file)).toEqual({ intents: ['1:applied', '2:pending'], locks: ['transaction:2'] });

      const alone = ledger.claimSoon('transaction:3', intent('3'));
      await new Promise((resolve) => setImmediate(resolve));
      expect((await onDisk(file)).locks).toEqual(['transaction:2']);
      vi.advanceTimersByTime(5);
      expect(await alone).toMatchObject({ ok: true, intent: { target: '3', state: 'pending' } });
      expect((await onDisk(file)).locks).toEqual(['transaction:2', 'transaction:3']);
    } finally {
      vi.useRealTimers();
      commits.mockRestore();
      ledger.close();
    }
  });

  it('one write that fails takes its commit down whole: every write of it is refused and its locks are not held', async () => {
    const file = ledgerPath(dir, 'p');
    const ledger = await Ledger.open(file, 'https://api.example');
    const good = ledger.claimSoon('transaction:1', intent('1'));
    // An intent without an operation breaks the table's NOT NULL rule.
    const bad = ledger.claimSoon('transaction:2', { ...intent('2'), operation: null as unknown as string });
    await expect(good).rejects.toThrow(/NOT NULL/);
    await expect(bad).rejects.toThrow(/NOT NULL/);
    expect(await onDisk(file)).toEqual({ intents: [], locks: [] });
    expect(ledger.claim('transaction:1').ok).toBe(true);
    ledger.close();
  });
});

describe('settle: look until applied or past the deadline', () => {
  it('applied: returns at the first lookup that shows it', async () => {
    let looks = 0;
    const result = await settle(Date.now() + 5000, async () => ++looks, (n) => n >= 2, { maxWaitMs: 5000, sleep: async () => undefined });
    expect(result).toEqual({ kind: 'applied', now: 2 });
  });

  it('not applied only from a lookup made at or after the deadline', async () => {
    const deadline = Date.now() + 300;
    const looked: number[] = [];
    const result = await settle(deadline, async () => looked.push(Date.now()), () => false, { maxWaitMs: 5000 });
    expect(result.kind).toBe('not_applied');
    expect(looked.length).toBeGreaterThan(1);
    expect(looked.at(-1)!).toBeGreaterThanOrEqual(deadline);
  });

  it('unknown when the lookups fail; a far deadline is cut to maxWaitMs', async () => {
    const started = Date.now();
    const result = await settle(Date.now() + 3_600_000, async () => Promise.reject(new Error('HTTP 503')), () => false, { maxWaitMs: 300 });
    expect(result).toMatchObject({ kind: 'unknown', error: { message: 'HTTP 503' } });
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('a move on a transaction is judged by its own operation', () => {
  const before = JSON.stringify({ amount: '10.00', status: 'succeeded', history: [{ id: 'h1', operation_type: 'authorization' }] });
  const tx = (amount: string, status: string, history: Array<{ id: string; operation_type: string }>) => ({ id: 't', amount, status, history });

  it('a refund: a new void, the amount down by it, or newly canceled; an old void does not count', async () => {
    const { transactionMoveApplied } = await import('../../src/commands/transactions/applied.js');
    const refund = { operation: 'transactions.void', before, amount_cents: 400 };
    expect(transactionMoveApplied(refund, tx('10.00', 'succeeded', [{ id: 'h1', operation_type: 'authorization' }]))).toBe(false);
    expect(transactionMoveApplied(refund, tx('10.00', 'succeeded', [{ id: 'h1', operation_type: 'authorization' }, { id: 'h2', operation_type: 'void' }]))).toBe(true);
    expect(transactionMoveApplied(refund, tx('6.00', 'succeeded', [{ id: 'h1', operation_type: 'authorization' }]))).toBe(true);
    const afterVoid = JSON.stringify({ amount: '6.00', status: 'succeeded', history: [{ id: 'h1', operation_type: 'authorization' }, { id: 'h2', operation_type: 'void' }] });
    expect(transactionMoveApplied({ ...refund, before: afterVoid }, tx('6.00', 'succeeded', [{ id: 'h1', operation_type: 'authorization' }, { id: 'h2', operation_type: 'void' }]))).toBe(false);
  });

  it('a capture and a boleto cancellation by their status; a refund left unresolved is not judged as a capture', async () => {
    const { transactionMoveApplied } = await import('../../src/commands/transactions/applied.js');
    const preAuthorized = JSON.stringify({ amount: '10.00', status: 'pre_authorized', history: [] });
    expect(transactionMoveApplied({ operation: 'transactions.capture', before: preAuthorized, amount_cents: 1000 }, tx('10.00', 'succeeded', []))).toBe(true);
    expect(transactionMoveApplied({ operation: 'transactions.capture', before: preAuthorized, amount_cents: 1000 }, tx('10.00', 'pre_authorized', []))).toBe(false);
    const pending = JSON.stringify({ status: 'pending' });
    expect(transactionMoveApplied({ operation: 'boletos.cancel', before: pending, amount_cents: null }, tx('150.00', 'canceled', []))).toBe(true);
    // The same "now" (status changed, a void added) read for a refund intent and for a capture intent.
    const now = tx('6.00', 'succeeded', [{ id: 'h1', operation_type: 'authorization' }, { id: 'h2', operation_type: 'void' }]);
    expect(transactionMoveApplied({ operation: 'transactions.void', before, amount_cents: 400 }, now)).toBe(true);
    expect(transactionMoveApplied({ operation: 'transactions.capture', before, amount_cents: 400 }, now)).toBe(false);
  });
});
