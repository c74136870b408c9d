import { UsageError, ValidationError } from '../../errors.js';
import { AMOUNT_COLUMN, CREATED_COLUMN, STATUS_COLUMN } from '../../output/columns.js';
import type { Column } from '../../output/render-options.js';
import { parseAmount, parseAmountCents, validateCurrency } from '../../validate/index.js';
import { centsForTable } from '../shared/cents.js';
import { optionalString, setGiven } from '../shared/input.js';
import type { PlanFlagValues } from './flags.js';

/** How a plan's subscriptions may be paid: charged to a card, or by a boleto issued for each invoice. */
export const PAYMENT_METHODS = ['credit', 'boleto'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const PLAN_COLUMNS: Column[] = [
  { key: 'uuid', header: 'ID', kind: 'id' },
  { key: 'name', header: 'NAME' },
  AMOUNT_COLUMN,
  { key: 'frequency', header: 'FREQUENCY' },
  { key: 'interval', header: 'INTERVAL' },
  STATUS_COLUMN,
  CREATED_COLUMN,
];

export const planRow = centsForTable('amount', 'setup_amount');

function positiveInteger(value: unknown, flag: string, min = 1): number | undefined {
  const text = optionalString(value);
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < min) throw new ValidationError(flag, `give a whole number of ${min} or more`);
  return Number(text);
}

function cents(options: PlanFlagValues, major: 'amount' | 'setupAmount', minor: 'amountCents' | 'setupAmountCents', majorFlag: string, minorFlag: string): number | undefined {
  const a = optionalString(options[major]);
  const b = optionalString(options[minor]);
  if (a !== undefined && b !== undefined) throw new UsageError(`use either ${majorFlag} or ${minorFlag}, not both`);
  if (a !== undefined) return parseAmount(a, majorFlag);
  if (b !== undefined) return parseAmountCents(b, minorFlag);
  return undefined;
}

/** The plan body from the flags given (amounts in cents); create adds its required fields. */
export function planBodyFromFlags(options: PlanFlagValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const name = optionalString(options.name)?.trim();
  if (name !== undefined) {
    if (!name) throw new ValidationError('--name', 'the plan name is empty');
    body.name = name;
  }
  setGiven(body, 'description', optionalString(options.description));
  setGiven(body, 'amount', cents(options, 'amount', 'amountCents', '--amount', '--amount-cents'));
  setGiven(body, 'setup_amount', cents(options, 'setupAmount', 'setupAmountCents', '--setup-amount', '--setup-amount-cents'));
  setGiven(body, 'currency', optionalString(options.currency), (currency) => validateCurrency(currency, '--currency'));
  setGiven(body, 'frequency', optionalString(options.frequency));
  setGiven(body, 'interval', positiveInteger(options.interval, '--interval'));
  const methods = options.paymentMethod ?? [];
  if (methods.length > 0) {
    const unknown = methods.filter((m) => !(PAYMENT_METHODS as readonly string[]).includes(m));
    if (unknown.length > 0) throw new ValidationError('--payment-method', `"${unknown.join(', ')}" is not supported; plans take ${PAYMENT_METHODS.join(' and ')}`);
    body.payment_methods = [...new Set(methods)];
  }
  setGiven(body, 'duration', positiveInteger(options.duration, '--duration'));
  setGiven(body, 'grace_period', positiveInteger(options.graceDays, '--grace-days', 0));
  setGiven(body, 'tolerance_period', positiveInteger(options.toleranceDays, '--tolerance-days', 0));
  return body;
}
