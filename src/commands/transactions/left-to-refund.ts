import { formatMoney } from '../../output/format.js';
import { centsToDecimalString, decimalStringToCents } from '../../validate/index.js';

// What a sale still allows a refund of, shared by the one-sale refund and the bulk run.

/** What is left to refund of a sale: its amount, which the service lowers with each void. */
export function leftToRefund(tx: { amount?: string | null }): number {
  return decimalStringToCents(tx.amount ?? '0');
}

/** Why a refund of `cents` cannot be made of a sale with `left` cents to refund, or undefined when it can. */
export function beyondWhatIsLeft(id: string, cents: number, left: number, currency?: string | null): string | undefined {
  if (cents <= left) return undefined;
  const money = (c: number) => formatMoney(centsToDecimalString(c), currency);
  return `${money(cents)} is more than the ${money(left)} left to refund on transaction ${id}`;
}
