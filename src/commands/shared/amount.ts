import { UsageError } from '../../errors.js';
import { parseAmount, parseAmountCents } from '../../validate/index.js';

/**
 * --amount (major units) or --amount-cents, converted exactly to integer cents. One given empty
 * (`--amount "$AMOUNT"` with nothing in it) is refused, never read as no amount: for a refund
 * that would be all that remains.
 */
export function amountFromFlags(options: { amount?: string; amountCents?: string }): number | undefined {
  const major = options.amount;
  const cents = options.amountCents;
  if (major !== undefined && cents !== undefined) {
    throw new UsageError('use either --amount or --amount-cents, not both');
  }
  if (major !== undefined) return parseAmount(major, '--amount');
  if (cents !== undefined) return parseAmountCents(cents, '--amount-cents');
  return undefined;
}
