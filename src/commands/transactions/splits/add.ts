import type { Factory } from '../../../factory.js';
import { UsageError } from '../../../errors.js';
import type { Sending } from '../../../ledger/guard.js';
import type { Intent } from '../../../ledger/types.js';
import { formatMoney } from '../../../output/format.js';
import { centsToDecimalString, decimalStringToCents } from '../../../validate/index.js';
import { moneyMoveFlags } from '../../shared/again.js';
import { optionalString } from '../../shared/input.js';
import { getTransaction, transactionId } from '../shared.js';
import { checkSplits, parseSplit, shareCents, splitRuleBody, type SplitInput } from '../split-input.js';
import { asSplitInput, listRules, partText, sellerNamed, SPLIT_RULE_VIEW, splitsMove, type SplitRule } from './shared.js';
import type { ArgsOf, OptionsOf } from '../../verb.js';
import type { splitsAdd } from '../flags.js';

/** What an add's intent remembers: the rules there were, and whose part it adds. */
interface AddBefore {
  rules: string[];
  recipient: string;
}

/** An add to send, and the part it gives in words, for the report. */
interface Adding extends Sending<SplitRule> {
  part: string;
}

/** An add shows applied once its recipient has a rule the transaction did not have before it. */
function addApplied(intent: Intent, now: SplitRule[]): boolean {
  const before = JSON.parse(intent.before ?? '{}') as Partial<AddBefore>;
  return now.some((r) => r.recipient === before.recipient && !(before.rules ?? []).includes(r.id));
}

/** The same part on the same terms: "30" and "30.00" percent are one share. */
function sameShare(a: SplitInput, b: SplitInput): boolean {
  const share = (s: SplitInput) => (s.share.mode === 'percentage' ? `${Number(s.share.value)}%` : `${s.share.cents}`);
  return share(a) === share(b) && a.liable === b.liable && a.net === b.net;
}

/**
 * Gives one more seller a part of a sale. Exactly once: a recipient has one rule per sale, so a
 * rerun whose earlier answer was lost finds the rule it made (by looking, never by sending again)
 * and says so; a different part for a recipient that has one is refused (remove it first).
 */
export async function run(ctx: Factory, args: ArgsOf<typeof splitsAdd>, options: OptionsOf<typeof splitsAdd>): Promise<void> {
  const id = transactionId(args);
  const value = optionalString(options.split);
  if (value === undefined) throw new UsageError('--split <seller-id>:<amount|percent%>[,liable][,net] is required');
  const split = parseSplit(value);
  await ctx.service.requireApiKey();
  if (ctx.globals.dryRun) {
    // A dry run reads nothing, so a percentage's cents (of the sale's amount) are not known.
    const body = { ...splitRuleBody(split, 0), ...(split.share.mode === 'percentage' ? { amount: `(${Number(split.share.value)}% of the sale's amount, in cents)` } : {}) };
    return ctx.service.printDryRun('transactions.splits.add', { params: { id }, body });
  }
  const flags = moneyMoveFlags(options);
  const guard = await ctx.moneyGuard({ noWait: flags.noWait });
  const { what, lookup } = splitsMove(ctx, id, 'transactions.splits.add', `the split rule for seller ${split.recipient} on transaction ${id}`, addApplied);
  const { underApproval } = await import('../../shared/approval.js');
  // Sent for approval, and waited for (--wait): the rule the approver's send made.
  const approved = async () => {
    const rule = (await listRules(ctx, id)).find((r) => r.recipient === split.recipient);
    if (rule) await ctx.out.show(rule, SPLIT_RULE_VIEW, { short: true });
    ctx.log.status(`Added split rule ${rule?.id ?? ''}: ${await ctx.out.named('seller', split.recipient)} has a part of transaction ${id}`);
  };
  await underApproval(ctx, flags.waitForApproval, () => guard.run<SplitRule[], SplitRule, Adding>({
    what,
    proof: {
      ...lookup,
      // The rule asked for: this recipient's, and one the sale did not have.
      answered: (intent, answer) => {
        const before = JSON.parse(intent.before ?? '{}') as AddBefore;
        return answer?.recipient === split.recipient && !before.rules.includes(answer.id)
          ? { kind: 'applied', proof: answer.id }
          : { kind: 'mismatch', why: `it is rule ${answer?.id ?? '(none)'} for seller ${answer?.recipient ?? '(none)'}, not a new rule for seller ${split.recipient}` };
      },
      seen: (now) => now.find((r) => r.recipient === split.recipient) as SplitRule,
    },
    send: {
      // An earlier run's rule, seen applied, is found among the rules and said so below.
      async prepare() {
        const tx = await getTransaction(ctx, id);
        const rules = await listRules(ctx, id);
        const existing = rules.find((r) => r.recipient === split.recipient);
        if (existing) {
          const had = asSplitInput(existing);
          if (!sameShare(split, had)) {
            throw new UsageError(`--split: seller ${split.recipient} already has a part of transaction ${id} (rule ${existing.id}, ${partText(existing, tx.currency)}); remove it first: payctl transactions splits remove ${id} ${existing.id}`);
          }
          await ctx.out.show(existing, SPLIT_RULE_VIEW, { short: true });
          const since = typeof existing.created_at === 'string' ? `, since ${existing.created_at}` : '';
          ctx.log.status(`Already done: ${await ctx.out.named('seller', split.recipient)} has this part of transaction ${id} (rule ${existing.id}${since}); nothing was sent.`);
          return undefined;
        }
        const amount = decimalStringToCents(tx.original_amount ?? tx.amount ?? '0');
        checkSplits([...rules.map(asSplitInput), split], amount, tx.on_behalf_of);
        const body = splitRuleBody(split, amount);
        const worth = formatMoney(centsToDecimalString(shareCents(split.share, amount)), tx.currency);
        const part = split.share.mode === 'percentage' ? `${Number(split.share.value)}% (${worth})` : worth;
        const question = async () => `Give ${await sellerNamed(ctx, split.recipient)} ${part} of transaction ${id} (${formatMoney(centsToDecimalString(amount), tx.currency)}), taken from ${await sellerNamed(ctx, tx.on_behalf_of)}`;
        await ctx.prompts.confirm(async () => `${await question()}?`, 'add a split rule');
        await ctx.service.noteSandbox();
        const api = await ctx.api();
        const before: AddBefore = { rules: rules.map((r) => r.id), recipient: split.recipient };
        const asked = { body, amountCents: shareCents(split.share, amount), currency: tx.currency ?? (await ctx.config.profile()).currency, summary: question, replay: ['transactions', 'splits', 'add', id, '--split', value] };
        return { part, record: { before: JSON.stringify(before) }, asked, request: () => api.call('transactions.splits.add', { params: { id }, body }) };
      },
    },
    report: {
      async done(rule, { part }) {
        await ctx.out.show(rule, SPLIT_RULE_VIEW, { short: true });
        ctx.log.status(`Added split rule ${rule.id}: ${await ctx.out.named('seller', split.recipient)} gets ${part} of transaction ${id}`);
      },
    },
  }), approved);
}
