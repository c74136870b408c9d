// The team's rules and requests as tests set them up and decide them: through a Factory on a home,
// as a command gets it, until the policy and approvals commands are there to do it.
import { PassThrough } from 'node:stream';
import { Factory } from '../../src/factory.js';
import { parseGlobals } from '../../src/globals.js';
import type { IO } from '../../src/io.js';
import type { Actor } from '../../src/ledger/actor.js';
import type { PolicyBook } from '../../src/ledger/policy/book.js';
import type { RuleSpec } from '../../src/ledger/policy/types.js';
import { currentOwner } from '../../src/platform/owner.js';
import { testEnv } from './run.js';

/** This machine's operator as a person at a terminal (no agent's variables). */
export const PERSON: Actor = { holder: currentOwner().holder, kind: 'person' };

/** A Factory on `home` (with `env`, e.g. a shared ledger's URL), prompts off, as a command gets it; and what it wrote on stderr. */
export function factoryOn(home: string, env: Record<string, string> = {}): { ctx: Factory; stderr: () => string } {
  let err = '';
  const stderr = new PassThrough();
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const stdin = new PassThrough();
  stdin.end();
  const io: IO = { stdin, stdout: new PassThrough(), stderr, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, env: testEnv(home, env) };
  return { ctx: new Factory(io, parseGlobals({ yes: true })), stderr: () => err };
}

/** Works on the ledger's book of rules and requests (of `home`, or the shared one `env` names), then closes it. */
export async function withBook<T>(home: string, work: (book: PolicyBook, now: number) => Promise<T>, env: Record<string, string> = {}): Promise<T> {
  const { ctx } = factoryOn(home, env);
  try {
    const { ledger } = await ctx.moneyGuard();
    return await work(ledger.policy, ledger.now());
  } finally {
    await ctx.close();
  }
}

const REFUNDS: Omit<RuleSpec, 'kind' | 'amount_cents'> = { operation: 'refund', actor: 'any', per: null, expires_hours: null, confirm_up_to_cents: null };

/** Adds a rule (refunds by anyone unless said otherwise), in force at once; returns its id. */
export function addRule(home: string, rule: Partial<RuleSpec> & Pick<RuleSpec, 'kind'>, env: Record<string, string> = {}): Promise<string> {
  return withBook(home, async (book, now) => (await book.applyChange({ action: 'add', rule: { ...REFUNDS, amount_cents: null, ...rule } }, PERSON, now))!.id, env);
}
