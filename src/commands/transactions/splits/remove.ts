import type { Factory } from '../../../factory.js';
import type { Sending } from '../../../ledger/guard.js';
import type { Intent } from '../../../ledger/types.js';
import { showRemoval } from '../../shared/show.js';
import { getTransaction, transactionId, type Transaction } from '../shared.js';
import { decimalStringToCents } from '../../../validate/index.js';
import { shareCents } from '../split-input.js';
import { asSplitInput, partText, ruleId, sellerNamed, splitsMove, type SplitRule } from './shared.js';
import { moneyMoveFlags } from '../../shared/again.js';
import type { ArgsOf, OptionsOf } from '../../verb.js';
import type { splitsRemove } from '../flags.js';

/** A removal to send, with the rule and the sale as read before asking, for the report. */
interface Removing extends Sending<unknown> {
  found: SplitRule;
  tx: Transaction;
}

/** What a rule's part of the sale is worth: what its removal moves back to the sale's seller. */
function partCents(rule: SplitRule, tx: Transaction): number {
  return shareCents(asSplitInput(rule).share, decimalStringToCents(tx.original_amount ?? tx.amount ?? '0'));
}

/** A removal shows applied once the rule is gone. */
function removeApplied(intent: Intent, now: SplitRule[]): boolean {
  const { rule } = JSON.parse(intent.before ?? '{}') as { rule?: string };
  return rule !== undefined && !now.some((r) => r.id === rule);
}

/** Takes a seller's part of a sale back to the sale's own seller. Exactly once, like add. */
export async function run(ctx: Factory, args: ArgsOf<typeof splitsRemove>, options: OptionsOf<typeof splitsRemove>): Promise<void> {
  const id = transactionId(args);
  const rule = ruleId(args);
  await ctx.service.requireApiKey();
  if (ctx.globals.dryRun) return ctx.service.printDryRun('transactions.splits.remove', { params: { id, rule } });
  const flags = moneyMoveFlags(options);
  const guard = await ctx.moneyGuard({ noWait: flags.noWait });
  const { what, lookup } = splitsMove(ctx, id, 'transactions.splits.remove', `the removal of split rule ${rule} of transaction ${id}`, removeApplied);
  const removed = { id: rule, resource: 'split_rule', deleted: true };
  const { underApproval } = await import('../../shared/approval.js');
  // Sent for approval, and waited for (--wait): the removal the approver's send made.
  const approved = async () => {
    await showRemoval(ctx, removed, 'Split rule', rule);
    ctx.log.status(`Removed split rule ${rule} of transaction ${id}`);
  };
  await underApproval(ctx, flags.waitForApproval, () => guard.run<SplitRule[], unknown, Removing>({
    what,
    proof: {
      ...lookup,
      // A removal answers with nothing of its own to check: its success status is its word.
      answered: () => ({ kind: 'applied', proof: rule }),
      seen: () => removed,
    },
    send: {
      async prepare(_memory, repeat) {
        const api = await ctx.api();
        if (repeat && removeApplied(repeat.intent, repeat.now) && JSON.parse(repeat.intent.before ?? '{}').rule === rule) {
          ctx.log.status(`Already done: split rule ${rule} of transaction ${id} was removed by an earlier run (its answer was lost); nothing was sent.`);
          await showRemoval(ctx, removed, 'Split rule', rule);
          return undefined;
        }
        // A rule that is not there answers 404 here, before anything is asked or sent.
        const found = await api.call('transactions.splits.get', { params: { id, rule } });
        const tx = await getTransaction(ctx, id);
        const question = async () => `Remove split rule ${rule} of transaction ${id} (${await sellerNamed(ctx, found.recipient)}, ${partText(found, tx.currency) ?? 'its part'})`;
        await ctx.prompts.confirm(async () => `${await question()}? Its part goes back to ${await sellerNamed(ctx, tx.on_behalf_of)}`, 'remove a split rule');
        await ctx.service.noteSandbox();
        const asked = { body: null, amountCents: partCents(found, tx), currency: tx.currency ?? (await ctx.config.profile()).currency, summary: question, replay: ['transactions', 'splits', 'remove', id, rule] };
        return { found, tx, record: { before: JSON.stringify({ rule }) }, asked, request: () => api.call('transactions.splits.remove', { params: { id, rule } }) };
      },
    },
    report: {
      async done(answer, { found, tx }) {
        await showRemoval(ctx, answer ?? removed, 'Split rule', rule);
        const back = tx.on_behalf_of ? await ctx.out.named('seller', tx.on_behalf_of) : "the sale's seller";
        ctx.log.status(`Removed split rule ${rule} of transaction ${id}; the part of ${await ctx.out.named('seller', found.recipient)} goes back to ${back}`);
      },
    },
  }), approved);
}
