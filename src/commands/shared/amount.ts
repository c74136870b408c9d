import { UsageError } from '../../errors.js';
import { parseAmount, parseAmountCents } from '../../validate/index.js';
import { optionalString } from './input.js';

/** --amount (major units) or --amount-cents, converted exactly to integer cents. */
export function amountFromFlags(options: { amount?: string; amountCents?: string }): number | undefined {
  const major = optionalString(options.amount);
  const cents = optionalString(options.amountCents);
  if (major !== undefined && cents !== undefined) {
    throw new UsageError('use either --amount or --amount-cents, not both');
  }
  if (major !== undefined) return parseAmount(major, '--amount');
  if (cents !== undefined) return parseAmountCents(cents, '--amount-cents');
  return undefined;
}
