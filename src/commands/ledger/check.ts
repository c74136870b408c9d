import type { Factory } from '../../factory.js';
import { CliError, ExitCode } from '../../errors.js';
import { LedgerLostError } from '../../ledger/errors.js';
import { isoTime } from '../../ledger/time.js';

/**
 * `payctl ledger check`: SQLite's integrity check of this machine's ledger (a shared one: that its
 * tables answer), and what it holds. Exit 0 when sound; exit 2, naming what to do, when not.
 */
export async function run(ctx: Factory): Promise<void> {
  await ctx.service.requireApiKey();
  const { ledger } = await ctx.moneyGuard().catch(async (err: unknown) => {
    // A lost ledger is this check's finding: said as its result, then as the error (exit 2).
    if (err instanceof LedgerLostError) await ctx.out.render({ ledger: err.where, integrity: 'lost', lost: `${err.what}; known since ${err.since}` });
    throw err;
  });
  const problems = await ledger.store.check();
  const [locks, open] = await Promise.all([ledger.locks(), ledger.list({ states: ['pending', 'unknown'], limit: 100_000 })]);
  await ctx.out.render({
    ledger: ledger.where,
    kind: ledger.kind,
    since: isoTime(ledger.local(ledger.store.since)),
    integrity: problems.length === 0 ? 'ok' : problems,
    open_outcomes: open.length,
    locks: locks.length,
  });
  if (problems.length > 0) {
    throw new CliError(
      `the ledger ${ledger.where} fails its integrity check (${problems.slice(0, 3).join('; ')}); no money moves should rely on it: restore it (from a backup), or run 'payctl ledger reset --yes'`,
      ExitCode.usage,
    );
  }
  ctx.log.status(`The ledger ${ledger.where} is sound${open.length > 0 ? `; ${open.length} move(s) with an open outcome are checked by the next money move on each` : ''}.`);
}
