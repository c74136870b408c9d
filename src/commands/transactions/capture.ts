import { UncertainOutcomeError } from '../../api/client.js';
import type { Context } from '../../context.js';
import { NetworkError, OutcomeUnknownError, UsageError } from '../../errors.js';
import { formatMoney } from '../../output/format.js';
import { centsToDecimalString, decimalStringToCents } from '../../validate/index.js';
import { amountFromFlags } from '../shared/amount.js';
import { describePayer, getTransaction, transactionId, type Transaction } from './shared.js';

/** The capture body: the given amount (partial capture) or the whole authorized amount. */
export function buildCaptureRequest(tx: Transaction, requestedCents: number | undefined, fallbackSeller?: string) {
  if (tx.status !== 'pre_authorized') {
    throw new UsageError(`transaction ${tx.id} is ${tx.status ?? 'in an unknown state'}; only a pre_authorized card transaction can be captured`);
  }
  const authorized = decimalStringToCents(tx.amount ?? '0');
  const amount = requestedCents ?? authorized;
  if (amount > authorized) {
    throw new UsageError(`--amount: ${formatMoney(centsToDecimalString(amount), tx.currency)} is more than the ${formatMoney(tx.amount ?? '0', tx.currency)} authorized`);
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
    const body = { on_behalf_of: "(the transaction's seller)", amount: requested ?? '(the authorized amount)' };
    return ctx.printDryRun('transactions.capture', { params: { id }, body });
  }
  const before = await getTransaction(ctx, id);
  const body = buildCaptureRequest(before, requested, profile.sellerId);
  const shown = formatMoney(centsToDecimalString(body.amount), before.currency);
  await ctx.confirm(`Capture ${shown} of transaction ${id} (${describePayer(before)})?`, 'capture');
  await ctx.noteSandbox();
  const api = await ctx.api();
  let after: Transaction;
  try {
    after = await api.call<Transaction>('transactions.capture', { params: { id }, body });
  } catch (err) {
    if (!(err instanceof UncertainOutcomeError)) throw err;
    ctx.log.warn(`${err.message}; checking whether the capture was applied`);
    let now: Transaction;
    try {
      now = await getTransaction(ctx, id);
    } catch {
      throw new OutcomeUnknownError(`could not tell whether transaction ${id} was captured; check with: payctl transactions get ${id} --fields status,captured,amount`, { cause: err });
    }
    if (now.status === 'pre_authorized') {
      throw new NetworkError(`the capture was not applied: transaction ${id} is still pre_authorized (${err.message}); it is safe to run the capture again`, { cause: err });
    }
    ctx.log.status(`The capture was applied (transaction is now ${now.status}).`);
    after = now;
  }
  await ctx.render(after);
  ctx.log.status(`Captured ${shown} of transaction ${id}; status ${after.status}`);
}
