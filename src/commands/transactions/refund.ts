import type { Factory } from '../../factory.js';
import { ApiError, NotAllowedError, UsageError } from '../../errors.js';
import { beyondWhatIsLeft, leftToRefund } from './left-to-refund.js';
import { formatMoney } from '../../output/format.js';
import { runMoneyMove, type MoneyBody, type MoneyMove } from './money-move.js';
import type { Transaction } from './shared.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { refund as refundVerb } from './flags.js';

/**
 * The void body: the given amount, or all that remains of the transaction. An amount larger than
 * what remains is refused here, naming what is left, before the ledger's memory is read: such a
 * refund cannot succeed, so it is never a probable duplicate to send anyway.
 */
export function buildRefundRequest(tx: Transaction, requestedCents: number | undefined, fallbackSeller?: string): MoneyBody {
  const remaining = leftToRefund(tx);
  const beyond = requestedCents === undefined ? undefined : beyondWhatIsLeft(tx.id, requestedCents, remaining, tx.currency);
  if (beyond) throw new NotAllowedError(beyond);
  const amount = requestedCents ?? remaining;
  if (amount <= 0) throw new NotAllowedError(`transaction ${tx.id} has nothing left to refund (status ${tx.status ?? 'unknown'})`);
  const seller = tx.on_behalf_of ?? fallbackSeller;
  if (!seller) throw new UsageError(`transaction ${tx.id} names no seller (on_behalf_of) and the profile has no seller_id (set it, or PAYCTL_SELLER_ID)`);
  return { on_behalf_of: seller, amount };
}

/** A refund larger than what is left (402; another refund landed since the sale was read): the service's words, and what is left. */
export function explainOverRefund(err: unknown, before: Transaction): unknown {
  if (!(err instanceof ApiError) || err.details.httpStatus !== 402) return undefined;
  const left = formatMoney(before.amount ?? '0', before.currency);
  return new ApiError(`${err.message.replace(/[.\s]+$/, '')}: ${left} left to refund on transaction ${before.id}`, err.details);
}

const refund: MoneyMove = {
  operation: 'transactions.void',
  action: 'refund',
  done: 'Refunded',
  defaultAmount: '(all that remains)',
  build: buildRefundRequest,
  nothingLeft: (tx) => (leftToRefund(tx) === 0 ? 'fully refunded' : undefined),
  explainRefusal: explainOverRefund,
};

export async function run(ctx: Factory, args: ArgsOf<typeof refundVerb>, options: OptionsOf<typeof refundVerb>): Promise<void> {
  if (options.file !== undefined) {
    if (args.length > 0) throw new UsageError('give either a transaction id or --file, not both');
    const { runBulkRefund } = await import('./bulk/run.js');
    return runBulkRefund(ctx, options);
  }
  const fileOnly = [options.concurrency, options.allowDuplicates, options.failedOut, options.maxWait, options.full].filter((value) => value !== undefined);
  if (fileOnly.length > 0) {
    throw new UsageError('--full, --concurrency, --allow-duplicates, --failed-out and --max-wait go with --file');
  }
  return runMoneyMove(ctx, args, options, refund);
}
