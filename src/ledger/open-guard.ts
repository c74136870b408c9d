import { MoneyGuard, type GuardDeps, type MoveGate } from './guard.js';
import type { Ledger } from './ledger.js';
import { openLedger, type LedgerPlace } from './open.js';
import type { Account } from './account.js';
import { currentOwner } from '../platform/owner.js';

/**
 * The money guard of an account: its ledger (this machine's SQLite file, or the shared PostgreSQL
 * database) opened, and the protocol around it, built from what the command gives: where the
 * ledger is, how to clean error text, the settings, a logger, how to show a wait, and what every
 * intent records beside `user@host`: the operator's display name, and the agent that acts, if one does.
 */
export async function openMoneyGuard(
  where: { place: LedgerPlace; account: Account; scrub: (text: string) => string },
  deps: Omit<GuardDeps, 'ledger' | 'gate'> & { gate?: (ledger: Ledger) => MoveGate },
  who: { name?: string | undefined; agent?: string | undefined; session?: string | undefined } = {},
): Promise<{ guard: MoneyGuard; close(): Promise<void> }> {
  const ledger = await openLedger(where.place, where.account, where.scrub, { ...currentOwner(), name: who.name, agent: who.agent, session: who.session });
  const { gate, ...rest } = deps;
  return { guard: new MoneyGuard({ ...rest, ledger, ...(gate ? { gate: gate(ledger) } : {}) }), close: () => ledger.close() };
}
