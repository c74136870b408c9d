import type { Factory } from '../../factory.js';
import { NotAllowedError, UsageError } from '../../errors.js';
import { formatMoney } from '../../output/format.js';
import { centsToDecimalString, decimalStringToCents } from '../../validate/index.js';
import { amountFromFlags } from '../shared/amount.js';
import { runMoneyMove, type MoneyBody, type MoneyMove } from './money-move.js';
import type { Transaction } from './shared.js';
import type { ArgsOf, OptionsOf } from '../verb.js';
import type { capture as captureVerb } from './flags.js';

/**
 * The capture body: the given amount (partial capture) or the whole authorized amount. A sale that
 * is not (or no longer) pre_authorized, or an amount beyond what it authorized, is refused here,
 * naming what it allows, before the ledger's memory is read.
 */
export function buildCaptureRequest(tx: Transaction, requestedCents: number | undefined, fallbackSeller?: string): MoneyBody {
  if (tx.status !== 'pre_authorized') {
    throw new NotAllowedError(`transaction ${tx.id} is ${tx.status ?? 'in an unknown state'}; only a pre_authorized card transaction can be captured`);
  }
  const authorized = decimalStringToCents(tx.amount ?? '0');
  const amount = requestedCents ?? authorized;
  if (amount > authorized) {
    throw new NotAllowedError(`${formatMoney(centsToDecimalString(amount), tx.currency)} is more than the ${formatMoney(tx.amount ?? '0', tx.currency)} authorized on transaction ${tx.id}`);
  }
  const seller = tx.on_behalf_of ?? fallbackSeller;
  if (!seller) throw new UsageError(`transaction ${tx.id} names no seller (on_behalf_of) and the profile has no seller_id (set it, or PAYCTL_SELLER_ID)`);
  return { on_behalf_of: seller, amount };
}

const capture: MoneyMove = {
  operation: 'transactions.capture',
  action: 'capture',
  done: 'Captured',
  defaultAmount: '(the authorized amount)',
  build: buildCaptureRequest,
  // A capture takes the authorization once: a sale no longer pre_authorized has been captured (or voided).
  nothingLeft: (tx) => (tx.status === 'pre_authorized' ? undefined : 'captured'),
};

/** The capture's flag rule: one amount, read strictly (none: the authorized amount). */
export function check(_args: ArgsOf<typeof captureVerb>, options: OptionsOf<typeof captureVerb>): void {
  amountFromFlags(options);
}

export function run(ctx: Factory, args: ArgsOf<typeof captureVerb>, options: OptionsOf<typeof captureVerb>): Promise<void> {
  return runMoneyMove(ctx, args, options, capture);
}
