import { UncertainOutcomeError } from '../../api/client.js';
import type { Context } from '../../context.js';
import { CliError, ExitCode, NetworkError, OutcomeUnknownError, UsageError } from '../../errors.js';
import { formatMoney } from '../../output/format.js';
import { centsToDecimalString, decimalStringToCents } from '../../validate/index.js';
import { amountFromFlags } from '../shared/amount.js';
import { describePayer, getTransaction, transactionId, type Transaction } from './shared.js';

export interface VoidBody {
  on_behalf_of: string;
  amount: number;
}

/**
 * The void body: the given amount, or all that remains of the transaction. An amount larger
 * than what remains is still sent: the service is the authority, and answers 402.
 */
export function buildRefundRequest(tx: Transaction, requestedCents: number | undefined, fallbackSeller?: string): VoidBody {
  const remaining = decimalStringToCents(tx.amount ?? '0');
  const amount = requestedCents ?? remaining;
  if (amount <= 0) {
    throw new CliError(`transaction ${tx.id} has nothing left to refund (status ${tx.status ?? 'unknown'})`, ExitCode.rejected);
  }
  const seller = tx.on_behalf_of ?? fallbackSeller;
  if (!seller) throw new UsageError(`transaction ${tx.id} names no seller (on_behalf_of) and the profile has no seller_id`);
  return { on_behalf_of: seller, amount };
}

export async function run(ctx: Context, args: string[], options: Record<string, unknown>): Promise<void> {
  const id = transactionId(args);
  const requested = amountFromFlags(options);
  await ctx.requireApiKey();
  const profile = await ctx.profile();
  if (ctx.globals.dryRun) {
    // A dry run sends nothing at all, not even the read that finds what remains.
    const body = { on_behalf_of: "(the transaction's seller)", amount: requested ?? '(all that remains)' };
    return ctx.printDryRun('transactions.void', { params: { id }, body });
  }
  const before = await getTransaction(ctx, id);
  const body = buildRefundRequest(before, requested, profile.sellerId);
  const shown = formatMoney(centsToDecimalString(body.amount), before.currency);
  await ctx.confirm(`Refund ${shown} of transaction ${id} (${describePayer(before)})?`, 'refund');
  await ctx.noteSandbox();
  const api = await ctx.api();
  let after: Transaction;
  try {
    after = await api.call<Transaction>('transactions.void', { params: { id }, body });
  } catch (err) {
    if (!(err instanceof UncertainOutcomeError)) throw err;
    after = await reconcileRefund(ctx, before, body.amount, err);
  }
  await ctx.render(after);
  ctx.log.status(`Refunded ${shown} of transaction ${id}; status ${after.status}`);
}

/**
 * The void was sent and no answer came back. Look at the transaction again: a new void in its
 * history (or the amount gone down by ours) means it was applied; unchanged means it was not.
 */
async function reconcileRefund(ctx: Context, before: Transaction, cents: number, cause: Error): Promise<Transaction> {
  ctx.log.warn(`${cause.message}; checking whether the refund was applied`);
  let now: Transaction;
  try {
    now = await getTransaction(ctx, before.id);
  } catch {
    throw new OutcomeUnknownError(
      `could not tell whether the refund of transaction ${before.id} was applied; check with: payctl transactions get ${before.id} --fields status,amount,history`,
      { cause },
    );
  }
  const seen = new Set((before.history ?? []).map((h) => h.id));
  const newVoid = (now.history ?? []).some((h) => !seen.has(h.id) && h.operation_type === 'void');
  const dropped = decimalStringToCents(before.amount ?? '0') - decimalStringToCents(now.amount ?? '0');
  if (newVoid || dropped >= cents || (now.status !== before.status && now.status === 'canceled')) {
    ctx.log.status('The refund was applied (confirmed from the transaction).');
    return now;
  }
  throw new NetworkError(
    `the refund was not applied: transaction ${before.id} is unchanged (${cause.message}); it is safe to run the refund again`,
    { cause },
  );
}
