import type { Factory } from '../../../factory.js';
import type { Intent } from '../../../ledger/types.js';
import { showRemoval } from '../../shared/show.js';
import { getTransaction, transactionId } from '../shared.js';
import { partText, ruleId, sellerNamed, splitsMove, type SplitRule } from './shared.js';
import type { ArgsOf } from '../../verb.js';
import type { splitsRemove } from '../flags.js';

/** A removal shows applied once the rule is gone. */
function removeApplied(intent: Intent, now: SplitRule[]): boolean {
  const { rule } = JSON.parse(intent.before ?? '{}') as { rule?: string };
  return rule !== undefined && !now.some((r) => r.id === rule);
}

/** Takes a seller's part of a sale back to the sale's own seller. Exactly once, like add. */
export async function run(ctx: Factory, args: ArgsOf<typeof splitsRemove>): Promise<void> {
  const id = transactionId(args);
  const rule = ruleId(args);
  await ctx.requireApiKey();
  if (ctx.globals.dryRun) return ctx.printDryRun('transactions.splits.remove', { params: { id, rule } });
  const guard = await ctx.moneyGuard();
  const guarded = splitsMove(ctx, id, 'transactions.splits.remove', `the removal of split rule ${rule} of transaction ${id}`, removeApplied);
  await guard.hold(guarded.key, guarded.what, `Let it finish, then check with: ${guarded.checkCommand}`, async (memory) => {
    const { repeat } = await guard.resolveEarlier(guarded, memory);
    const api = await ctx.api();
    if (repeat && removeApplied(repeat.intent, repeat.now) && JSON.parse(repeat.intent.before ?? '{}').rule === rule) {
      ctx.log.status(`Already done: split rule ${rule} of transaction ${id} was removed by an earlier run (its answer was lost); nothing was sent.`);
      await showRemoval(ctx, { id: rule, resource: 'split_rule', deleted: true }, 'Split rule', rule);
      return;
    }
    // A rule that is not there answers 404 here, before anything is asked or sent.
    const found = await api.call('transactions.splits.get', { params: { id, rule } });
    const tx = await getTransaction(ctx, id);
    await ctx.confirm(
      async () => `Remove split rule ${rule} of transaction ${id} (${await sellerNamed(ctx, found.recipient)}, ${partText(found, tx.currency) ?? 'its part'})? Its part goes back to ${await sellerNamed(ctx, tx.on_behalf_of)}`,
      'remove a split rule',
    );
    await ctx.noteSandbox();
    const answer = await guard.send(
      guarded,
      memory,
      { before: JSON.stringify({ rule }) },
      () => api.call('transactions.splits.remove', { params: { id, rule } }),
      // A removal answers with nothing of its own to check: its success status is its word.
      () => ({ kind: 'applied', proof: rule }),
      () => ({ id: rule, resource: 'split_rule', deleted: true }),
    );
    await showRemoval(ctx, answer ?? { id: rule, resource: 'split_rule', deleted: true }, 'Split rule', rule);
    const back = tx.on_behalf_of ? await ctx.out.named('seller', tx.on_behalf_of) : "the sale's seller";
    ctx.log.status(`Removed split rule ${rule} of transaction ${id}; the part of ${await ctx.out.named('seller', found.recipient)} goes back to ${back}`);
  });
}
