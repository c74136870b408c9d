import type { Factory } from '../../factory.js';
import { PolicyRefusedError, ProbableDuplicateError } from '../../errors.js';
import { agentSignal } from '../../platform/agent.js';
import { flag } from '../verb.js';

// The flags every money move shares for what the ledger already knows (docs/refunds-and-bulk.md, "Money moves
// exactly once"): --again sends a move payctl already made, --no-wait does not wait for an
// earlier one that could still land; and for the team's rules: --wait waits for the decision on a
// move a rule sent for approval (exit 13 otherwise, at once).

/** --wait and --no-wait alone: a move that is new each time (a sale) has no earlier one to send again. */
export const WAIT_FLAGS = {
  wait: flag('--wait', "when a rule of the team's policy sends it for approval (exit 13): wait for the decision, with a countdown to its expiry", {
    negation: 'do not wait for an earlier move that could still land: exit 9 at once, saying when to come back',
  }),
};

export const MONEY_MOVE_FLAGS = {
  again: flag('--again', 'send it even though payctl already made this same move on it (otherwise: asks on a terminal, exit 11 elsewhere)'),
  ...WAIT_FLAGS,
};

export interface MoneyMoveFlags {
  again: boolean;
  noWait: boolean;
  /** --wait: a move sent for approval waits for its decision. */
  waitForApproval: boolean;
}

/**
 * --again forces a move the ledger would stop as a repeat: only a person may (exit 4, nothing
 * sent). An AI agent's shell is refused; `payctl mcp`'s tools never take the flag at all.
 */
export function refuseAgainFromAgent(ctx: Pick<Factory, 'io' | 'agent'>): void {
  const signal = ctx.agent ? `payctl mcp, ${ctx.agent.name}` : agentSignal(ctx.io.env);
  if (signal !== undefined) throw new PolicyRefusedError(`--again: an AI agent (${signal}) cannot force a repeat of a money move; only a person can, on a terminal of their own. Nothing was sent`);
}

export function moneyMoveFlags(options: { again?: boolean; wait?: boolean }): MoneyMoveFlags {
  return { again: options.again === true, noWait: options.wait === false, waitForApproval: options.wait === true };
}

/**
 * A move payctl (or the resource's own history) says was already made: with --again it goes on,
 * saying so; on a terminal the user is asked (`<earlier>. <question> [y/N]`, a "no" is exit 3);
 * elsewhere it stops with exit 11 and nothing sent. Returns whether the user was asked, so the
 * usual confirmation is not asked again.
 */
export async function confirmDespiteEarlier(ctx: Pick<Factory, 'log' | 'prompts' | 'io'> & Partial<Pick<Factory, 'agent'>>, flags: MoneyMoveFlags, earlier: string, question: string, action: string): Promise<boolean> {
  if (flags.again) {
    ctx.log.warn(`${earlier}; sending it again (--again)`);
    return false;
  }
  if (ctx.prompts.interactive) {
    const prompter = await ctx.prompts.prompter();
    await prompter.confirmOrCancel(`${earlier}. ${question}`);
    return true;
  }
  const said = `probable duplicate: ${earlier.charAt(0).toLowerCase()}${earlier.slice(1)}; nothing was sent`;
  // An agent is told it is done: it cannot force a repeat, only a person can.
  if (ctx.agent || agentSignal(ctx.io.env) !== undefined) throw new ProbableDuplicateError(`${said}. It is already done: an AI agent does not send it again (only a person can, on a terminal, with --again)`);
  throw new ProbableDuplicateError(`${said}. Pass --again to ${action}`);
}
